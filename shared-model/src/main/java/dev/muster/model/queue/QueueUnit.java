package dev.muster.model.queue;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** Kube Queue's record of one job in a queue ({@code scheduling.x-k8s.io/v1alpha1 QueueUnit}). */
@Group(Queue.GROUP)
@Version(Queue.VERSION)
@Kind(QueueUnit.KIND)
@Plural("queueunits")
// As Kube Queue's definition declares them.
@AdditionalPrinterColumn(name = "Queue", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".spec.queue")
@AdditionalPrinterColumn(name = "Phase", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Age", type = AdditionalPrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
// Muster's own, with -o wide: a time to come, which a date column would print as <invalid>.
@AdditionalPrinterColumn(name = "Estimated Start", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.estimatedStartTime",
        priority = 1)
public class QueueUnit extends CustomResource<QueueUnitSpec, QueueUnitStatus> implements Namespaced {

    public static final String KIND = "QueueUnit";
}
