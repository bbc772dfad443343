package dev.muster.runtime.views;

import jakarta.enterprise.context.RequestScoped;

/** Who sent the request being answered, as {@link ViewCredentialsFilter} found. */
@RequestScoped
public class CurrentViewer {

    private Viewer viewer;

    void set(Viewer viewer) {
        this.viewer = viewer;
    }

    /** @throws IllegalStateException when no filter has authenticated the request: a view must never guess */
    public Viewer get() {
        if (viewer == null) {
            throw new IllegalStateException("the request was not authenticated by ViewCredentialsFilter");
        }
        return viewer;
    }
}
