package dev.muster.runtime.views;

import java.util.Map;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/**
 * Lets a request reach a view only with a viewer's bearer token (when viewers are configured), and says who sent it.
 * Before matching, so that no path under the views, not even one that does not exist, answers anything else without one.
 */
@Provider
@PreMatching
public class ViewCredentialsFilter implements ContainerRequestFilter {

    // Looked up per request: providers are made while the application starts, before its runtime configuration is read.
    @Inject
    Instance<ViewAccess> access;

    @Inject
    CurrentViewer current;

    @Override
    public void filter(ContainerRequestContext request) {
        ViewAccess.Verdict verdict = access.get().authenticate(request.getHeaderString(HttpHeaders.AUTHORIZATION));
        if (verdict instanceof ViewAccess.Refused refused) {
            request.abortWith(Response.status(Response.Status.UNAUTHORIZED).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"muster\"")
                    .type(MediaType.APPLICATION_JSON).entity(Map.of("error", refused.reason())).build());
            return;
        }
        current.set(((ViewAccess.Allowed) verdict).viewer());
    }

    /** The answer to a viewer asking for a namespace it may not see: the same whether or not anything is there. */
    public static Response forbidden(Viewer viewer, String namespace) {
        return Response.status(Response.Status.FORBIDDEN).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", "viewer \"" + viewer.name() + "\" may not see namespace " + namespace)).build();
    }
}
