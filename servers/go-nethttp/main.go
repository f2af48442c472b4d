// The go-nethttp variant: Go's net/http with the common scenarios of servers/scenarios.js
// (the proxy-baseline study's authors compared Go next). Standard library only, so the
// build needs no module downloads. It follows servers/contract.js itself: options in
// PERFGATE_* variables, PORT/HOST, the ready file written atomically, stop on SIGTERM.
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

func envInt(name string, fallback int) int {
	value, err := strconv.Atoi(env(name, strconv.Itoa(fallback)))
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

func routes() http.Handler {
	ioDelay := time.Duration(envInt("PERFGATE_IO_DELAY_MS", 100)) * time.Millisecond
	cpuWork := parseCPUWork(env("PERFGATE_CPU_WORK", "loop:180000"))
	injectedLoops := envInt("PERFGATE_INJECT_LOOPS", 0)
	logging := env("PERFGATE_LOG", "0") == "1"
	backendURL := os.Getenv("PERFGATE_BACKEND_URL")

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
			answer, err := http.Post(backendURL, "application/json", r.Body)
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
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if logging {
			fmt.Printf("%s %s %s\n", time.Now().UTC().Format(time.RFC3339Nano), r.Method, r.URL.RequestURI())
		}
		if injectedLoops > 0 {
			divisionLoop(injectedLoops)
		}
		handler, ok := handlers[r.Method+" "+r.URL.Path]
		if !ok {
			send(w, 404, textType, []byte("Not Found"))
			return
		}
		status, contentType, body := handler(r)
		send(w, status, contentType, body)
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
	server := &http.Server{Handler: routes()}
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
