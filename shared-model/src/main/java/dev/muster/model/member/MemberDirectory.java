package dev.muster.model.member;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Member clusters registered as files: each {@code <cluster>.kubeconfig} in a directory is one member, so a
 * cluster joins the fleet when its file appears and leaves when the file goes, while the services run. The
 * member simulator writes its clusters' kubeconfigs this way.
 */
public final class MemberDirectory {

    public static final String SUFFIX = ".kubeconfig";
    /** What a cluster may be called: a Kubernetes name (DNS-1123 label). */
    private static final Pattern CLUSTER_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private final Path directory;

    public MemberDirectory(Path directory) {
        this.directory = directory;
    }

    /**
     * The members now: each cluster's kubeconfig file, by cluster name. A directory that does not exist (yet)
     * holds none; files not named {@code <cluster>.kubeconfig} are not members.
     *
     * @throws UncheckedIOException when the directory exists but cannot be read
     */
    public Map<String, Path> scan() {
        Map<String, Path> members = new TreeMap<>();
        if (!Files.isDirectory(directory)) {
            return members;
        }
        try (Stream<Path> files = Files.list(directory)) {
            files.filter(Files::isRegularFile).forEach(file -> {
                String name = file.getFileName().toString();
                if (name.endsWith(SUFFIX)) {
                    String cluster = name.substring(0, name.length() - SUFFIX.length());
                    if (CLUSTER_NAME.matcher(cluster).matches()) {
                        members.put(cluster, file);
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the member directory " + directory, e);
        }
        return members;
    }

    @Override
    public String toString() {
        return directory.toString();
    }
}
