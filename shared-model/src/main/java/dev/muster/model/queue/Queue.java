package dev.muster.model.queue;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** Kube Queue's queue ({@code scheduling.x-k8s.io/v1alpha1 Queue}): one per quota node, in namespace {@code kube-queue}. */
@Group(Queue.GROUP)
@Version(Queue.VERSION)
@Kind(Queue.KIND)
@Plural("queues")
public class Queue extends CustomResource<QueueSpec, QueueStatus> implements Namespaced {

    public static final String GROUP = "scheduling.x-k8s.io";
    public static final String VERSION = "v1alpha1";
    public static final String KIND = "Queue";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** Where Muster creates the queues, as Kube Queue does. */
    public static final String NAMESPACE = "kube-queue";
}
