// The tomcat variant: one servlet on embedded Tomcat with the common scenarios of
// servers/contract/scenarios.js, and the db scenario through a Tomcat JDBC pool (node-vs-java study).
// It follows servers/contract/contract.js itself: scenario options in PERFGATE_* variables, PORT/HOST, the
// ready file written atomically, stop on SIGTERM. Tomcat's thread and connection limits come
// from PERFGATE_TOMCAT_MAX_THREADS / PERFGATE_TOMCAT_MAX_CONNECTIONS (the config field server).
package perfgate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

public final class Main {
    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }

    static int envInt(String name, int fallback) {
        return Integer.parseInt(env(name, String.valueOf(fallback)));
    }

    static void setIfGiven(Connector connector, String property, String name) {
        String value = System.getenv(name);
        if (value != null) connector.setProperty(property, value);
    }

    public static void main(String[] args) throws Exception {
        Tomcat tomcat = new Tomcat();
        Path baseDir = Files.createTempDirectory("perfgate-tomcat-");
        tomcat.setBaseDir(baseDir.toString());
        Connector connector = new Connector("HTTP/1.1");
        connector.setProperty("address", env("HOST", "127.0.0.1"));
        connector.setPort(envInt("PORT", 0));
        // The harness always passes these (bench/config/server-settings.js holds their defaults);
        // run by hand without them, Tomcat keeps its own.
        setIfGiven(connector, "maxThreads", "PERFGATE_TOMCAT_MAX_THREADS");
        setIfGiven(connector, "maxConnections", "PERFGATE_TOMCAT_MAX_CONNECTIONS");
        tomcat.setConnector(connector);

        if (args.length != 1) {
            System.err.println("perfgate server failed to start: usage: perfgate-tomcat.jar <static files directory>");
            System.exit(1);
        }
        // The static scenario: Tomcat's DefaultServlet serves servers/static/ under /static/.
        Path staticDir = Path.of(args[0]).toAbsolutePath();
        Context context = tomcat.addContext("", staticDir.getParent().toString());
        Scenarios scenarios;
        try {
            scenarios = new Scenarios(System.getenv());
        } catch (IllegalStateException | IllegalArgumentException error) {
            System.err.println("perfgate server failed to start: " + error.getMessage());
            System.exit(1);
            return;
        }
        Tomcat.addServlet(context, "scenarios", new ScenarioServlet(scenarios));
        context.addServletMappingDecoded("/*", "scenarios");
        Tomcat.addServlet(context, "users", new UserServlet(scenarios));
        context.addServletMappingDecoded("/users/*", "users");
        Tomcat.addServlet(context, "static", "org.apache.catalina.servlets.DefaultServlet");
        context.addServletMappingDecoded("/static/*", "static");
        context.addMimeMapping("html", "text/html;charset=utf-8");
        context.getPipeline().addValve(new ExactContentType());

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                tomcat.stop();
                tomcat.destroy();
            } catch (Exception ignored) {
                // exiting anyway
            }
            scenarios.close();
            deleteTree(baseDir);
        }));
        tomcat.start();
        reportReady(connector.getLocalPort());
        tomcat.getServer().await();
    }

    static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (Exception ignored) {
            // a temporary directory: the system cleans it up eventually
        }
    }

    static void reportReady(int port) throws Exception {
        String line = "{\"port\":" + port + ",\"pid\":" + ProcessHandle.current().pid() + "}";
        String readyFile = System.getenv("PERFGATE_READY_FILE");
        if (readyFile == null) {
            System.out.println("listening on port " + port);
            return;
        }
        Path tmp = Path.of(readyFile + ".tmp");
        Files.writeString(tmp, line);
        Files.move(tmp, Path.of(readyFile), StandardCopyOption.ATOMIC_MOVE);
    }
}
