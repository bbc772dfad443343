package dev.muster.simulator.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

/**
 * The open watches of one simulated API server, and the events each is sent, as fabric8's CRUD dispatcher sends
 * them (a new watch first gets every stored object it selects as {@code ADDED}; a change is {@code ADDED},
 * {@code MODIFIED} or {@code DELETED} to each watch by whether it selected the object before and after) with one
 * difference: the stored JSON goes into the event as it is. The stock dispatcher parses the object and writes it
 * out again for every watch an event reaches, and a member's pods are watched by status sync, the training
 * operator, the scheduler and the kubelet: each pod change was parsed and written four times over, the largest
 * cost of a simulated member under load.
 */
final class WatchFanOut {

    private final Set<Watch> watches = ConcurrentHashMap.newKeySet();
    private final Map<AttributeSet, String> stored;

    /** @param stored the dispatcher's store, a synchronized map, which a new watch reads under its lock */
    WatchFanOut(Map<AttributeSet, String> stored) {
        this.stored = stored;
    }

    /** The listener for a new watch of what the attributes select. */
    WebSocketListener open(AttributeSet selected) {
        return new Watch(selected);
    }

    /** Sends one stored change to each watch it concerns; either side is null when the object was created or deleted. */
    void publish(AttributeSet before, AttributeSet after, String json, String previousJson) {
        for (Watch watch : watches) {
            boolean selectedBefore = before != null && before.matches(watch.selected);
            boolean selectedAfter = after != null && after.matches(watch.selected);
            if (selectedBefore && selectedAfter) {
                watch.send(Watcher.Action.MODIFIED, json);
            } else if (selectedBefore) {
                watch.send(Watcher.Action.DELETED, previousJson);
            } else if (selectedAfter) {
                watch.send(Watcher.Action.ADDED, json);
            }
        }
    }

    private static String event(Watcher.Action action, String json) {
        return "{\"type\":\"" + action.name() + "\",\"object\":" + json + "}";
    }

    /** One watch: its selection, its socket, and one thread that sends its events in the order they happened. */
    private final class Watch extends WebSocketListener {

        private final AttributeSet selected;
        private final AtomicReference<WebSocket> socket = new AtomicReference<>();
        private final ExecutorService sender = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "watch-sender");
            thread.setDaemon(true);
            return thread;
        });

        Watch(AttributeSet selected) {
            this.selected = selected;
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            socket.set(webSocket);
            // Registered before the store is read: a change made in between is sent twice, never lost, and the
            // later of the two sends always carries the later state.
            watches.add(this);
            List<String> current = new ArrayList<>();
            synchronized (stored) {
                for (Map.Entry<AttributeSet, String> entry : stored.entrySet()) {
                    if (entry.getKey().matches(selected)) {
                        current.add(entry.getValue());
                    }
                }
                current.forEach(json -> send(Watcher.Action.ADDED, json));
            }
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            webSocket.close(code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            end();
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable failure, Response response) {
            webSocket.close(1000, failure.getMessage());
            end();
        }

        void send(Watcher.Action action, String json) {
            String event = event(action, json);
            try {
                sender.execute(() -> socket.get().send(event));
            } catch (RejectedExecutionException closedMeanwhile) {
                // The watch ended while the change was being made: nobody is left to tell.
            }
        }

        void end() {
            watches.remove(this);
            sender.shutdown();
            WebSocket open = socket.get();
            if (open != null) {
                open.close(1000, "watch ended");
            }
        }
    }
}
