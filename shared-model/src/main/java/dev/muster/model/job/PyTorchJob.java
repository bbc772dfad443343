package dev.muster.model.job;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** Kubeflow's distributed PyTorch training job ({@code kubeflow.org/v1 PyTorchJob}), the unit Muster queues and places. */
@Group(PyTorchJob.GROUP)
@Version(PyTorchJob.VERSION)
@Kind(PyTorchJob.KIND)
@Plural(PyTorchJob.PLURAL)
// As Kubeflow's definition declares them: kubectl get pytorchjob shows NAME STATE AGE.
@AdditionalPrinterColumn(name = "State", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.conditions[-1:].type")
@AdditionalPrinterColumn(name = "Age", type = AdditionalPrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
public class PyTorchJob extends CustomResource<PyTorchJobSpec, PyTorchJobStatus> implements Namespaced {

    public static final String GROUP = "kubeflow.org";
    public static final String VERSION = "v1";
    public static final String PLURAL = "pytorchjobs";
    public static final String KIND = "PyTorchJob";
    public static final String API_VERSION = GROUP + "/" + VERSION;
}
