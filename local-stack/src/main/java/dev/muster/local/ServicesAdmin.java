package dev.muster.local;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import dev.muster.simulator.admin.AdminServer;

/**
 * The local stack's services on the simulator's admin API, for {@code ./muster restart} and {@code ./muster kill}:
 * <pre>
 * GET  /services                    each service: running, pid, port, restarts, since when
 * POST /services/{service}/restart  stop it cleanly and start it again
 * POST /services/{service}/kill     kill it (SIGKILL); the supervisor starts it again
 * </pre>
 */
final class ServicesAdmin implements AdminServer.Extension {

    private final ServiceSupervisor supervisor;

    ServicesAdmin(ServiceSupervisor supervisor) {
        this.supervisor = supervisor;
    }

    @Override
    public String prefix() {
        return "services";
    }

    @Override
    public Object route(String method, List<String> path) throws Exception {
        if (path.isEmpty() || path.size() == 1 && path.get(0).isEmpty()) {
            return supervisor.describe();
        }
        if (path.size() != 2 || !List.of("restart", "kill").contains(path.get(1))) {
            throw new NoSuchElementException("no such service action: " + String.join("/", path) + "; POST /services/{service}/restart or kill");
        }
        if (!"POST".equals(method)) {
            throw new IllegalArgumentException("/services/" + String.join("/", path) + " takes POST");
        }
        MusterService service = Arrays.stream(MusterService.values()).filter(each -> each.artifact().equals(path.get(0))
                || each.endpointKey().equals(path.get(0))).findFirst().orElseThrow(() -> new NoSuchElementException("no service " + path.get(0)
                + "; the stack runs " + Arrays.stream(MusterService.values()).map(MusterService::artifact).toList()));
        if (path.get(1).equals("restart")) {
            supervisor.restart(service);
        } else {
            supervisor.kill(service);
        }
        return Map.of("service", service.artifact(), "done", path.get(1));
    }
}
