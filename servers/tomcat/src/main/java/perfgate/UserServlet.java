package perfgate;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

// The query scenario: the container's mapping (/users/*) routes the request, the path info is
// the user id and the servlet API parses the query string.
final class UserServlet extends HttpServlet {
    private final Scenarios scenarios;

    UserServlet(Scenarios scenarios) {
        this.scenarios = scenarios;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (scenarios.logging) System.out.println(java.time.Instant.now() + " GET " + request.getRequestURI());
        String id = request.getPathInfo() == null ? "" : request.getPathInfo().substring(1);
        Scenarios.Answer answer = id.isEmpty() || id.contains("/")
            ? new Scenarios.Answer(404, Scenarios.TEXT_TYPE, "Not Found")
            : scenarios.user(id, request.getParameter("fields"));
        ScenarioServlet.send(request, response, answer);
    }
}
