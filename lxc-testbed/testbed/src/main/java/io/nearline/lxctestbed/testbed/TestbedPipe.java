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
import io.nearline.jobs.kit.console.DurationConverter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "pipe",
        mixinStandardHelpOptions = true,
        description = {
            "Put a network pipe on one node: a bandwidth limit, random loss and a fixed delay on its traffic with "
                    + "--to (this machine, another node, or all), each in both directions; replaces the node's "
                    + "pipe; --clear takes it off.",
            "%nBandwidth is shaped with HTB, loss dropped by nftables; delay is netem where the kernel has it, "
                    + "else a helper that holds the node's packets (lxc-testbed/bin/nfqueue-delay; needs iptables "
                    + "and python3).%n"
        })
final class TestbedPipe implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    TestbedCommand.Where where;

    @picocli.CommandLine.Parameters(index = "0", paramLabel = "NODE", description = "node-1, node-2, ...")
    String nodeName;

    @Option(names = "--bandwidth", paramLabel = "RATE", description = "Rate such as 512kbit, 1mbit.")
    String bandwidth;

    @Option(
            names = "--delay",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Fixed delay each way, such as 100ms.")
    Duration delay;

    @Option(names = "--loss", paramLabel = "PERCENT", description = "Random loss, such as 5%.")
    String loss;

    @Option(
            names = "--to",
            defaultValue = "all",
            paramLabel = "host|NODE|all",
            description = "Whose traffic with the node the pipe holds (default: ${DEFAULT-VALUE}).")
    String to;

    @Option(names = "--clear", description = "Take the node's pipe off.")
    boolean clear;

    @Override
    public Integer call() {
        Path dir = where.path();
        LxcNode node = named(dir, nodeName);
        if (clear) {
            Pipe.clear(node);
            System.out.println("pipe on " + node.name() + " cleared");
            return 0;
        }
        if (bandwidth == null && delay == null && loss == null) {
            throw new ClusterException("give --bandwidth, --delay or --loss (or --clear)");
        }
        String peer =
                switch (to) {
                    case "all" -> null;
                    case "host" -> TestbedNetwork.of(dir).serviceAddress();
                    default -> named(dir, to).address();
                };
        Pipe pipe = new Pipe(bandwidth, delay == null ? 0 : delay.toMillis(), percent(loss), peer);
        pipe.apply(node);
        System.out.println("pipe on " + node.name() + " (" + node.address() + ") with " + to + ": "
                + (bandwidth == null ? "" : bandwidth + " ")
                + (delay == null ? "" : "delay " + delay.toMillis() + " ms ")
                + (loss == null ? "" : "loss " + percent(loss) + "% ") + "each way");
        return 0;
    }

    private static int percent(String loss) {
        if (loss == null) {
            return 0;
        }
        try {
            return Integer.parseInt(loss.strip().replace("%", ""));
        } catch (NumberFormatException e) {
            throw new ClusterException("--loss " + loss + ": give a whole percentage such as 5%");
        }
    }

    private static LxcNode named(Path dir, String name) {
        List<LxcNode> nodes = TestbedCommand.nodes(dir);
        return nodes.stream()
                .filter(n -> n.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new ClusterException("no node '" + name + "' in the testbed in " + dir + " (nodes: "
                        + nodes.stream().map(LxcNode::name).toList() + ")"));
    }
}
