package perfgate;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.tomcat.jdbc.pool.DataSource;
import org.apache.tomcat.jdbc.pool.PoolProperties;

// The scenarios' work and answers, byte for byte as servers/contract/scenarios.js defines them. Every
// scenario option arrives in its PERFGATE_* variable (servers/contract/options.js holds the defaults);
// a missing one stops the server. The proxy forwards with Java's HttpClient (HTTP/1.1,
// keep-alive pool), so it serves proxyClient=http only: the Node clients do not apply.
final class Scenarios implements AutoCloseable {
    static final String HELLO_TEXT = "Hello World";
    static final String JSON_BODY = "{\"message\":\"Hello, World!\"}";
    static final String TEXT_TYPE = "text/plain; charset=utf-8";
    static final String JSON_TYPE = "application/json; charset=utf-8";
    static final String DB_QUERY = "SELECT count(*)::int AS items, sum(price)::int AS total FROM items";

    record Answer(int status, String type, String body) {}

    final boolean logging;
    private final long ioDelayMs;
    private final Runnable cpuWork;
    private final int injectedLoops;
    private final String backendUrl;
    private final DataSource database;
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    static volatile double sink; // keeps the cpu work from being optimised away

    // A scenario option: the harness always passes it, so a missing one is an error.
    static String option(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null) throw new IllegalStateException(name + " is not set: perfgate passes every scenario option to its servers (servers/contract/options.js)");
        return value;
    }

    Scenarios(Map<String, String> env) {
        logging = "1".equals(option(env, "PERFGATE_LOG"));
        ioDelayMs = Long.parseLong(option(env, "PERFGATE_IO_DELAY_MS"));
        cpuWork = parseCpuWork(option(env, "PERFGATE_CPU_WORK"));
        Long.parseLong(option(env, "PERFGATE_BACKEND_DELAY_MS")); // the mock backend's option: checked, not used here
        String client = option(env, "PERFGATE_PROXY_CLIENT");
        if (!client.equals("http")) throw new IllegalStateException("PERFGATE_PROXY_CLIENT=\"" + client + "\": tomcat forwards with Java's HttpClient (proxyClient=http only)");
        // Calibration only, not a scenario option: absent means no injected work.
        injectedLoops = Integer.parseInt(env.getOrDefault("PERFGATE_INJECT_LOOPS", "0"));
        backendUrl = env.get("PERFGATE_BACKEND_URL");
        String databaseUrl = env.get("PERFGATE_DATABASE_URL");
        database = databaseUrl == null ? null : pool(databaseUrl, Integer.parseInt(env.getOrDefault("PERFGATE_DB_POOL_SIZE", "10")));
    }

    // postgres://user@host:port/db -> a JDBC pool of `size` connections.
    private static DataSource pool(String url, int size) {
        URI uri = URI.create(url);
        PoolProperties properties = new PoolProperties();
        properties.setUrl("jdbc:postgresql://" + uri.getHost() + ":" + uri.getPort() + uri.getPath());
        properties.setDriverClassName("org.postgresql.Driver");
        properties.setUsername(uri.getUserInfo());
        properties.setMaxActive(size);
        properties.setMaxIdle(size);
        properties.setInitialSize(size);
        return new DataSource(properties);
    }

    static double divisionLoop(int iterations) {
        double x = 0;
        for (int i = 1; i <= iterations; i++) x += (double) i / (i + 1);
        return x;
    }

    static long fibonacci(int n) {
        return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
    }

    private static Runnable parseCpuWork(String spec) {
        Matcher match = Pattern.compile("^(loop|fib):(\\d+)$").matcher(spec);
        if (!match.matches()) throw new IllegalArgumentException("cpu work \"" + spec + "\" is not understood");
        int amount = Integer.parseInt(match.group(2));
        return match.group(1).equals("loop") ? () -> sink = divisionLoop(amount) : () -> sink = fibonacci(amount);
    }

    Answer answer(String route, InputStream body) throws Exception {
        if (injectedLoops > 0) sink = divisionLoop(injectedLoops);
        switch (route) {
            case "GET /hello": return new Answer(200, TEXT_TYPE, HELLO_TEXT);
            case "GET /json": return new Answer(200, JSON_TYPE, JSON_BODY);
            // Parsed and written back, as the JSON frameworks do.
            case "POST /echo": return new Answer(200, JSON_TYPE, json.writeValueAsString(json.readTree(body)));
            case "POST /proxy": return forward(body.readAllBytes());
            case "GET /io":
                Thread.sleep(ioDelayMs);
                return new Answer(200, JSON_TYPE, JSON_BODY);
            case "GET /cpu":
                cpuWork.run();
                return new Answer(200, JSON_TYPE, JSON_BODY);
            case "GET /db": return query();
            default: return new Answer(404, TEXT_TYPE, "Not Found");
        }
    }

    // The query scenario's answer: the id and the asked fields of that user, in the order asked.
    Answer user(String id, String fields) throws java.io.IOException {
        if (injectedLoops > 0) sink = divisionLoop(injectedLoops);
        Map<String, String> user = Map.of("name", "user-" + id, "email", "user-" + id + "@example.com");
        var answer = json.createObjectNode().put("id", id);
        for (String field : (fields == null ? "" : fields).split(",")) {
            if (user.containsKey(field)) answer.put(field, user.get(field));
        }
        return new Answer(200, JSON_TYPE, json.writeValueAsString(answer));
    }

    private Answer forward(byte[] body) throws Exception {
        if (backendUrl == null) return new Answer(500, TEXT_TYPE, "PERFGATE_BACKEND_URL is not set");
        HttpRequest request = HttpRequest.newBuilder(URI.create(backendUrl))
            .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(answer.statusCode(), answer.headers().firstValue("content-type").orElse(""), answer.body());
    }

    private Answer query() throws Exception {
        if (database == null) return new Answer(500, TEXT_TYPE, "PERFGATE_DATABASE_URL is not set");
        try (Connection connection = database.getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(DB_QUERY)) {
            rows.next();
            return new Answer(200, JSON_TYPE, "{\"items\":" + rows.getInt("items") + ",\"total\":" + rows.getInt("total") + "}");
        }
    }

    @Override
    public void close() {
        if (database != null) database.close();
    }
}
