package dev.muster.model.resource;

/** The resource names Muster reasons about by name; any other name is carried and compared as given. */
public final class ResourceNames {

    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String GPU = "nvidia.com/gpu";
    /** The resource every pod takes one of on its node. */
    public static final String PODS = "pods";
    /** Kube Queue's count of jobs admitted at once under a quota node. */
    public static final String MAX_JOBS = "kube-queue/max-jobs";

    private ResourceNames() {
    }
}
