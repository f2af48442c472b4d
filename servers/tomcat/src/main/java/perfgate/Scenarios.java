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

// The scenarios' work and answers, byte for byte as servers/scenarios.js defines them.
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
    private final HttpClient http = HttpClient.newHttpClient();
    static volatile double sink; // keeps the cpu work from being optimised away

    Scenarios(Map<String, String> env) {
        logging = "1".equals(env.get("PERFGATE_LOG"));
        ioDelayMs = Long.parseLong(env.getOrDefault("PERFGATE_IO_DELAY_MS", "100"));
        cpuWork = parseCpuWork(env.getOrDefault("PERFGATE_CPU_WORK", "loop:180000"));
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
