// The go-nethttp variant: Go's net/http with the common scenarios of servers/contract/scenarios.js
// (the proxy-baseline study's authors compared Go next). Standard library only, so the
// build needs no module downloads. It follows servers/contract/contract.js itself: every scenario
// option in its PERFGATE_* variable (servers/contract/options.js holds the defaults; a missing one
// stops the server), PORT/HOST, the ready file written atomically, stop on SIGTERM.
// The proxy forwards with Go's own net/http client (keep-alive, idle connections kept
// without a per-host cap), so it serves proxyClient=http only: the Node clients do not apply.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	helloText = "Hello World"
	jsonBody  = `{"message":"Hello, World!"}`
	textType  = "text/plain; charset=utf-8"
	jsonType  = "application/json; charset=utf-8"
)

func env(name, fallback string) string {
	if value, ok := os.LookupEnv(name); ok {
		return value
	}
	return fallback
}

// A scenario option: the harness always passes it, so a missing one is an error.
func option(name string) string {
	value, ok := os.LookupEnv(name)
	if !ok {
		log.Fatalf("perfgate server failed to start: %s is not set: perfgate passes every scenario option to its servers (servers/contract/options.js)", name)
	}
	return value
}

func optionInt(name string) int {
	value, err := strconv.Atoi(option(name))
	if err != nil {
		log.Fatalf("perfgate server failed to start: %s is not a number", name)
	}
	return value
}

// Kept in a package variable so that the compiler cannot drop the loop.
var sink float64

func divisionLoop(iterations int) {
	x := 0.0
	for i := 1; i <= iterations; i++ {
		x += float64(i) / float64(i+1)
	}
	sink = x
}

func fibonacci(n int) int {
	if n < 2 {
		return n
	}
	return fibonacci(n-1) + fibonacci(n-2)
}

// "loop:180000" or "fib:30" -> the work of one cpu request.
func parseCPUWork(spec string) func() {
	match := regexp.MustCompile(`^(loop|fib):(\d+)$`).FindStringSubmatch(spec)
	if match == nil {
		log.Fatalf(`perfgate server failed to start: cpu work "%s" is not understood`, spec)
	}
	amount, _ := strconv.Atoi(match[2])
	if match[1] == "loop" {
		return func() { divisionLoop(amount) }
	}
	return func() { sink = float64(fibonacci(amount)) }
}

func send(w http.ResponseWriter, status int, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// The query scenario's answer: the id and the asked fields of that user, in the order asked.
func userAnswer(id string, fields string) []byte {
	user := map[string]string{"name": "user-" + id, "email": "user-" + id + "@example.com"}
	quote := func(text string) string { encoded, _ := json.Marshal(text); return string(encoded) }
	answer := `{"id":` + quote(id)
	for _, field := range strings.Split(fields, ",") {
		if value, ok := user[field]; ok {
			answer += `,"` + field + `":` + quote(value)
		}
	}
	return []byte(answer + "}")
}

// staticDir: the static scenario's files (servers/static/, given as the first argument).
func routes(staticDir string) http.Handler {
	ioDelay := time.Duration(optionInt("PERFGATE_IO_DELAY_MS")) * time.Millisecond
	cpuWork := parseCPUWork(option("PERFGATE_CPU_WORK"))
	logging := option("PERFGATE_LOG") == "1"
	optionInt("PERFGATE_BACKEND_DELAY_MS") // the mock backend's option: checked, not used here
	if client := option("PERFGATE_PROXY_CLIENT"); client != "http" {
		log.Fatalf(`perfgate server failed to start: PERFGATE_PROXY_CLIENT="%s": go-nethttp forwards with Go's net/http client (proxyClient=http only)`, client)
	}
	// Calibration only, not a scenario option: absent means no injected work.
	injectedLoops, err := strconv.Atoi(env("PERFGATE_INJECT_LOOPS", "0"))
	if err != nil {
		log.Fatal("perfgate server failed to start: PERFGATE_INJECT_LOOPS is not a number")
	}
	backendURL := os.Getenv("PERFGATE_BACKEND_URL")
	// DefaultTransport keeps only 2 idle connections per host, which would reconnect under load.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 100000
	transport.MaxIdleConns = 0
	backend := &http.Client{Transport: transport}

	handlers := map[string]func(*http.Request) (int, string, []byte){
		"GET /hello": func(*http.Request) (int, string, []byte) { return 200, textType, []byte(helloText) },
		"GET /json":  func(*http.Request) (int, string, []byte) { return 200, jsonType, []byte(jsonBody) },
		"POST /echo": func(r *http.Request) (int, string, []byte) {
			body, _ := io.ReadAll(r.Body)
			var compact bytes.Buffer // parsed and written back, as the JSON frameworks do
			if err := json.Compact(&compact, body); err != nil {
				return 400, textType, []byte(err.Error())
			}
			return 200, jsonType, compact.Bytes()
		},
		"POST /proxy": func(r *http.Request) (int, string, []byte) {
			if backendURL == "" {
				return 500, textType, []byte("PERFGATE_BACKEND_URL is not set")
			}
			answer, err := backend.Post(backendURL, "application/json", r.Body)
			if err != nil {
				return 502, textType, []byte(err.Error())
			}
			defer answer.Body.Close()
			body, _ := io.ReadAll(answer.Body)
			return answer.StatusCode, answer.Header.Get("Content-Type"), body
		},
		"GET /io":  func(*http.Request) (int, string, []byte) { time.Sleep(ioDelay); return 200, jsonType, []byte(jsonBody) },
		"GET /cpu": func(*http.Request) (int, string, []byte) { cpuWork(); return 200, jsonType, []byte(jsonBody) },
	}
	// net/http's own router: exact routes, the user id as a path value, files under /static/.
	mux := http.NewServeMux()
	for pattern, handler := range handlers {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			status, contentType, body := handler(r)
			send(w, status, contentType, body)
		})
	}
	mux.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, r *http.Request) {
		send(w, 200, jsonType, userAnswer(r.PathValue("id"), r.URL.Query().Get("fields")))
	})
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServer(http.Dir(staticDir))))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { send(w, 404, textType, []byte("Not Found")) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if logging {
			fmt.Printf("%s %s %s\n", time.Now().UTC().Format(time.RFC3339Nano), r.Method, r.URL.RequestURI())
		}
		if injectedLoops > 0 {
			divisionLoop(injectedLoops)
		}
		mux.ServeHTTP(w, r)
	})
}

func reportReady(port int) {
	line := fmt.Sprintf(`{"port":%d,"pid":%d}`, port, os.Getpid())
	readyFile := os.Getenv("PERFGATE_READY_FILE")
	if readyFile == "" {
		fmt.Printf("listening on port %d\n", port)
		return
	}
	if err := os.WriteFile(readyFile+".tmp", []byte(line), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(readyFile+".tmp", readyFile); err != nil {
		log.Fatal(err)
	}
}

func main() {
	address := net.JoinHostPort(env("HOST", "127.0.0.1"), env("PORT", "0"))
	listener, err := net.Listen("tcp", address)
	if err != nil {
		log.Fatalf("perfgate server failed to start: %v", err)
	}
	if len(os.Args) != 2 {
		log.Fatal("perfgate server failed to start: usage: go-nethttp <static files directory>")
	}
	server := &http.Server{Handler: routes(os.Args[1])}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		server.Shutdown(ctx)
	}()
	reportReady(listener.Addr().(*net.TCPAddr).Port)
	if err := server.Serve(listener); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
