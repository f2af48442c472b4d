package perfgate;

import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;

// Tomcat rewrites "text/plain; charset=utf-8" as "text/plain;charset=utf-8", but every variant
// must send the same bytes: the servlet leaves the type in a request attribute and this valve
// sets it verbatim before the (still uncommitted) response is sent.
final class ExactContentType extends ValveBase {
    static final String ATTRIBUTE = "perfgate.contentType";

    ExactContentType() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        getNext().invoke(request, response);
        Object type = request.getAttribute(ATTRIBUTE);
        if (type != null) response.getCoyoteResponse().setContentTypeNoCharset((String) type);
    }
}
