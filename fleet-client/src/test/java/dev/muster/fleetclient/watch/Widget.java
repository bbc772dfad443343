package dev.muster.fleetclient.watch;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** A custom resource with a typed field, so that an object whose field has another type cannot be read into it. */
@Group("test.muster.dev")
@Version("v1")
public class Widget extends CustomResource<Widget.Spec, Void> implements Namespaced {

    public record Spec(int size) {
    }
}
