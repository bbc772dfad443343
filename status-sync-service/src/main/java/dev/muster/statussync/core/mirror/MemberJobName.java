package dev.muster.statussync.core.mirror;

/** A job's name on one member: what its copy is called there and what its pods are labelled with. */
record MemberJobName(String cluster, String namespace, String name) {

    static MemberJobName of(MemberCopy copy) {
        return new MemberJobName(copy.cluster(), copy.job().namespace(), copy.job().name());
    }

    static MemberJobName of(MemberPod pod) {
        return new MemberJobName(pod.cluster(), pod.namespace(), pod.job());
    }
}
