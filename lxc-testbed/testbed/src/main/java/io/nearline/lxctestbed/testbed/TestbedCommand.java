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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nearline testbed up | status | down}: an emulated YARN cluster on this machine. The
 * ResourceManager, the Kafka broker and the networked cache (CouchbaseMock) run here, on a bridge the
 * testbed creates; each node is an LXC instance on that bridge running one NodeManager. The testbed
 * is a local cluster like {@code cluster up}'s ({@code DIR/cluster.yaml}), so {@code deploy},
 * {@code publish}, {@code check} and {@code collect} work against it with {@code --cluster DIR}.
 */
@Command(
        name = "testbed",
        mixinStandardHelpOptions = true,
        description = {
            "An emulated YARN cluster of LXC instances on this machine, to drill the jobs against node and network "
                    + "failures.",
            "%nThe ResourceManager, Kafka and CouchbaseMock run on this machine on a bridge the testbed creates (no "
                    + "NAT, no route out); each node is an LXC application container on that bridge running one "
                    + "NodeManager. Needs root, iproute2 and LXC (apt-get install lxc). Addresses are written to "
                    + "DIR/cluster.yaml: deploy to it with --cluster DIR.%n"
        },
        subcommands = {
            TestbedUp.class,
            TestbedStatus.class,
            TestbedPipe.class,
            TestbedHealCommand.class,
            TestbedDown.class,
            TestbedTargets.class
        })
public final class TestbedCommand implements Runnable {

    public static final String DEFAULT_DIR = ".nearline/testbed";

    @Override
    public void run() {
        System.out.println("usage: nearline testbed up|status|pipe|heal|targets|down [--dir DIR] (see --help)");
    }

    /** Where the testbed lives. */
    static final class Where {
        @Option(
                names = "--dir",
                defaultValue = DEFAULT_DIR,
                paramLabel = "DIR",
                description = "Where the testbed lives (default: ${DEFAULT-VALUE}).")
        Path dir;

        Path path() {
            return dir.toAbsolutePath().normalize();
        }
    }

    /** The testbed's nodes, numbered from 1, as far as its directory tells (none before the first up). */
    public static List<LxcNode> nodes(Path dir) {
        Path lxc = dir.resolve("lxc");
        if (!Files.isDirectory(lxc)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(lxc)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.matches("node-\\d+\\.conf"))
                    .map(f -> Integer.parseInt(f.replaceAll("\\D", "")))
                    .sorted()
                    .map(n -> node(dir, n))
                    .toList();
        } catch (IOException e) {
            throw new ClusterException("cannot read " + lxc + ": " + e.getMessage());
        }
    }

    static LxcNode node(Path dir, int n) {
        TestbedNetwork net = TestbedNetwork.of(dir);
        return new LxcNode("node-" + n, n, net.nodeAddress(n), net.mac(n), dir.resolve("lxc"), net.bridge());
    }

    /** Why this machine cannot run a testbed, or null. */
    public static String unavailableReason() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "the testbed needs root (a bridge and LXC instances)";
        }
        for (String tool : List.of("ip", "lxc-execute", "lxc-stop", "lxc-info")) {
            try {
                Process p = new ProcessBuilder(tool, "--version")
                        .redirectErrorStream(true)
                        .start();
                p.getInputStream().readAllBytes();
                p.waitFor();
            } catch (IOException e) {
                return tool + " is not installed (apt-get install lxc iproute2)";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
        return null;
    }
}
