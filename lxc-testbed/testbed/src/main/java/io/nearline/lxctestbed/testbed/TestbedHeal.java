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
package io.nearline.lxctestbed.testbed;

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.localcluster.cluster.HostCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Healing a testbed: every part of every fault a drill can apply taken off, each tried whatever the
 * others do; and the mark a drill leaves when it could not heal, which the next drill refuses until
 * {@code testbed heal} clears it.
 */
public final class TestbedHeal {

    private static final String MARK = "faulted";

    private TestbedHeal() {}

    /** One part of a heal, named for the message when it fails. */
    public record Part(String name, Runnable action) {}

    /**
     * Runs every part, whatever fails; then throws one ClusterException naming each part that failed
     * (the first failure its cause, the others suppressed), or returns.
     */
    public static void every(List<Part> parts) {
        List<String> failed = new ArrayList<>();
        RuntimeException first = null;
        for (Part p : parts) {
            try {
                p.action().run();
            } catch (RuntimeException e) {
                failed.add(p.name() + ": " + e.getMessage());
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            ClusterException all = new ClusterException("not healed: " + String.join("; ", failed));
            all.initCause(first);
            throw all;
        }
    }

    /** {@link #every} over targets, one part each. */
    public static <T> void onEvery(List<T> targets, String what, Consumer<T> action) {
        every(targets.stream()
                .map(t -> new Part(what + " on " + t, () -> action.accept(t)))
                .toList());
    }

    /** A node's network faults off: its partition rules and its pipe, the pipe cleared even if the rules were not. */
    public static void links(LxcNode node) {
        every(List.of(
                new Part("the partition of " + node.name(), () -> Partition.heal(node)),
                new Part("the pipe of " + node.name(), () -> Pipe.clear(node))));
    }

    /**
     * Everything a drill may have left on the testbed in {@code dir}: nodes thawed, started again if
     * stopped, their partitions and pipes off; the broker started again if it is gone; the store's
     * process continued. Then the mark is cleared. @return what was done
     */
    public static List<String> everything(Path dir) {
        ClusterFile c = ClusterFile.read(dir);
        List<String> done = new ArrayList<>();
        List<Part> parts = new ArrayList<>();
        for (LxcNode node : TestbedCommand.nodes(dir)) {
            parts.add(new Part(node.name(), () -> {
                if (node.frozen()) {
                    node.thaw();
                    done.add(node.name() + " thawed");
                }
                if (!node.state().equals("RUNNING")) {
                    Daemons.restart(dir, node.name());
                    done.add(node.name() + " started again");
                }
                links(node);
            }));
        }
        parts.add(new Part("kafka", () -> {
            if (!Daemons.alive(c.processes().get("kafka"), dir)) {
                Daemons.restart(dir, "kafka");
                done.add("kafka started again");
            }
        }));
        Long store = c.processes().get(c.store());
        if (store != null) {
            parts.add(new Part("the store", () -> HostCommand.run(List.of("kill", "-CONT", Long.toString(store)), "")));
        }
        every(parts);
        clear(dir);
        return done;
    }

    /** Marks the testbed in {@code dir} as left faulted: each line what could not be healed. */
    public static void mark(Path dir, List<String> unhealed) {
        try {
            Files.write(dir.resolve(MARK), unhealed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What an earlier drill could not heal, if it left the testbed faulted. */
    public static Optional<String> faulted(Path dir) {
        try {
            return Files.exists(dir.resolve(MARK))
                    ? Optional.of(String.join("; ", Files.readAllLines(dir.resolve(MARK))))
                    : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Exit 2, naming the fault and the fix, when an earlier drill left the testbed in {@code dir} faulted. */
    public static void refuseIfFaulted(Path dir) {
        faulted(dir).ifPresent(what -> {
            throw new ClusterException(
                    "the testbed in " + dir + " was left faulted by an earlier drill (" + what
                            + "): run 'bin/nearline testbed heal --dir " + dir + "' first",
                    2);
        });
    }

    static void clear(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve(MARK));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
