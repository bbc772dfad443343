package dev.muster.placement.core.binding;

import java.util.List;

import dev.muster.model.event.JobRef;
import dev.muster.model.job.JobDependencies;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.reservation.Reservation;

/** A write placement asks of a member cluster's API; the adapter carries it out and reports a {@link MemberResult}. */
public sealed interface MemberCommand {

    String cluster();

    JobRef job();

    /** What the write does, as a failure message names it. */
    String step();

    /** Create these reservations, one per pod of the plan; their names are deterministic, so a repeat finds them there. */
    record Reserve(String cluster, JobRef job, List<Reservation> reservations) implements MemberCommand {

        public Reserve {
            reservations = List.copyOf(reservations);
        }

        @Override
        public String step() {
            return "reserving";
        }
    }

    /**
     * Create the member copy of the job (an existing copy owned by the same fleet job counts as created), after
     * copying the ConfigMaps and Secrets it needs from the fleet when its policy propagates them.
     */
    record CreateJob(String cluster, JobRef job, PyTorchJob memberJob, List<JobDependencies.Dependency> dependencies) implements MemberCommand {

        public CreateJob {
            dependencies = List.copyOf(dependencies);
        }

        @Override
        public String step() {
            return "creating the job";
        }
    }

    /**
     * Stop the job on the member for a reclaim: delete its member copy (this fleet job's only), every pod and every
     * reservation made for it, and say what is still there (pods terminating). Asked again until nothing is.
     */
    record Evict(String cluster, JobRef job) implements MemberCommand {

        @Override
        public String step() {
            return "stopping the job";
        }
    }

    /** Delete these reservations; gone ones are fine. */
    record Release(String cluster, JobRef job, List<String> reservations) implements MemberCommand {

        public Release {
            reservations = List.copyOf(reservations);
        }

        @Override
        public String step() {
            return "releasing";
        }
    }
}
