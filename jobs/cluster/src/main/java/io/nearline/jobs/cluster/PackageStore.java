/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.jobs.cluster;

import io.nearline.jobs.kit.processes.Home;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where YARN localizes packages from: the cluster file's {@code packages} location, {@code hdfs://...}
 * (or any file system Hadoop's client knows) or {@code file:///DIR} on a disk every NodeManager shares.
 *
 * <p>Each artifact goes under a name of its content ({@code LOCATION/SHA/NAME}) and is never overwritten:
 * YARN refuses to localize a file changed since the application was submitted, so a redeploy that
 * replaced the package of a running job would break that job's next container restart. The same
 * content is uploaded once.
 *
 * <p>Remote locations go through Hadoop's own client ({@code FsShell}, from the YARN daemons' classpath,
 * configured by the cluster's {@code HADOOP_CONF_DIR}), so they work wherever a Hadoop client does.
 */
public final class PackageStore {

    private static final Duration QUICK = Duration.ofSeconds(60);
    private static final Duration UPLOAD = Duration.ofMinutes(5);

    private final String location;
    private final Path hadoopConf;

    /** {@code location} as the cluster file names it; {@code hadoopConf} the Hadoop client's configuration. */
    public PackageStore(String location, Path hadoopConf) {
        this.location = location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
        this.hadoopConf = hadoopConf;
    }

    public String location() {
        return location;
    }

    private boolean local() {
        return location.startsWith("file:");
    }

    /** Whether the location is a distributed file system (not a directory NodeManagers share by mount). */
    public boolean remote() {
        return !local();
    }

    /** Where {@link #put} puts {@code artifact}: {@code LOCATION/SHA/NAME}. */
    public String target(Path artifact) {
        return location + "/" + digest(artifact) + "/" + artifact.getFileName();
    }

    /**
     * The URI of {@code artifact} (a file, or a directory of files) in this store, uploaded first unless
     * the same content is there.
     */
    public String put(Path artifact) {
        String target = target(artifact);
        if (local()) {
            copyLocally(artifact, Path.of(URI.create(target)));
        } else if (!exists(target)) {
            String parent = target.substring(0, target.lastIndexOf('/'));
            // a half-written upload never has the final name: put under a temporary one, then rename
            String partial = parent + "/." + artifact.getFileName() + "."
                    + ProcessHandle.current().pid();
            fs(UPLOAD, "-mkdir", "-p", parent);
            // already under a temporary name: no second one per file (-d); a directory's files four at a time
            fs(UPLOAD, "-put", "-f", "-d", "-t", "4", artifact.toString(), partial);
            fs(QUICK, "-mv", partial, target);
        }
        return target;
    }

    /** Null when the location can be written; otherwise why not, in a line. */
    public String unwritableReason() {
        if (local()) {
            Path dir = Path.of(URI.create(location));
            return Files.isDirectory(dir) && Files.isWritable(dir) ? null : dir + " is not a writable directory";
        }
        try {
            fs(QUICK, "-mkdir", "-p", location);
            return null;
        } catch (ClusterException e) {
            return e.getMessage();
        }
    }

    private boolean exists(String uri) {
        return shell(QUICK, "-test", "-e", uri).exit() == 0;
    }

    private void fs(Duration limit, String... args) {
        ClientProcess.Result r = shell(limit, args);
        if (r.exit() != 0) {
            String why = r.output()
                    .lines()
                    .filter(l ->
                            !l.isBlank() && !l.startsWith("\tat ") && !l.contains(" WARN ") && !l.contains(" INFO "))
                    .findFirst()
                    .orElse(r.timedOut() ? "no answer within " + limit.toSeconds() + " s" : "exit " + r.exit());
            throw new ClusterException(
                    "the package location " + location + " (" + String.join(" ", args) + "): " + why.strip());
        }
    }

    private ClientProcess.Result shell(Duration limit, String... args) {
        if (hadoopConf == null) {
            throw new ClusterException("packages at " + location + " need a Hadoop client configuration: give the "
                    + "cluster file a yarn conf-dir ('cluster init --yarn-conf DIR', HADOOP_CONF_DIR-style)");
        }
        List<String> command = new ArrayList<>(List.of(Home.java(), "-Xmx256m"));
        command.addAll(FlinkRest.JAVA_17_OPTS);
        command.addAll(List.of(
                "-Dlog4j.configurationFile=" + hadoopConf.resolve("log4j2.properties"),
                "-cp",
                hadoopConf + ":" + YarnRest.lib(Home.dir()) + "/*",
                "org.apache.hadoop.fs.FsShell",
                // an unreachable NameNode is named within seconds, not after Hadoop's minutes of retries
                "-D",
                "ipc.client.connect.max.retries=3",
                "-D",
                "ipc.client.connect.max.retries.on.timeouts=3"));
        command.addAll(List.of(args));
        return ClientProcess.run(command, Map.of("HADOOP_CONF_DIR", hadoopConf.toString()), limit);
    }

    private static void copyLocally(Path artifact, Path target) {
        try {
            if (Files.exists(target)) {
                return;
            }
            Path partial = Files.createDirectories(target.getParent())
                    .resolve("." + target.getFileName() + "."
                            + ProcessHandle.current().pid());
            if (Files.isDirectory(artifact)) {
                Files.createDirectories(partial);
                for (Path f : files(artifact)) {
                    Files.copy(f, partial.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            } else {
                Files.copy(artifact, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first 16 hex digits of SHA-256 over the artifact's bytes (a directory's files by name, then bytes). */
    static String digest(Path artifact) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (Path f : Files.isDirectory(artifact) ? files(artifact) : List.of(artifact)) {
                sha.update(f.getFileName().toString().getBytes(StandardCharsets.UTF_8));
                try (InputStream in = Files.newInputStream(f)) {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        sha.update(buffer, 0, n);
                    }
                }
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
