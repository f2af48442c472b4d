package perfgate;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;

// Routes "METHOD /path" to a scenario; a blocking servlet, one Tomcat thread per request,
// as in the node-vs-java study (Spring MVC on Tomcat).
final class ScenarioServlet extends HttpServlet {
    private final Scenarios scenarios;

    ScenarioServlet(Scenarios scenarios) {
        this.scenarios = scenarios;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (scenarios.logging) System.out.println(Instant.now() + " " + request.getMethod() + " " + request.getRequestURI());
        Scenarios.Answer answer;
        try {
            answer = scenarios.answer(request.getMethod() + " " + request.getRequestURI(), request.getInputStream());
        } catch (Exception error) {
            answer = new Scenarios.Answer(500, Scenarios.TEXT_TYPE, String.valueOf(error.getMessage()));
        }
        send(request, response, answer);
    }

    static void send(HttpServletRequest request, HttpServletResponse response, Scenarios.Answer answer) throws IOException {
        byte[] body = answer.body().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        response.setStatus(answer.status());
        request.setAttribute(ExactContentType.ATTRIBUTE, answer.type());
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
