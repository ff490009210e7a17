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
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Network partitions of one testbed node, as nftables rules in the node's namespace (a table of its
 * own, so that pipes and partitions come off independently): cut off from everyone, or from this
 * machine's services but for some ports.
 */
public final class Partition {

    private static final String TABLE = "nearline_partition";

    private Partition() {}

    /** Cuts {@code node} off from everyone: nothing in or out but its loopback. */
    public static void isolate(LxcNode node) {
        load(node, "iifname != \"lo\" drop;", "oifname != \"lo\" drop;");
    }

    /**
     * Cuts {@code node} off from every service on {@code host} (this machine's bridge address) except
     * the TCP ports {@code open}: what reaches the store, while the broker and YARN stay reachable.
     */
    public static void cutFrom(LxcNode node, String host, Set<Integer> open) {
        String ports = open.stream().sorted().map(String::valueOf).collect(Collectors.joining(", "));
        load(
                node,
                "ip saddr " + host + " tcp sport != { " + ports + " } drop;",
                "ip daddr " + host + " tcp dport != { " + ports + " } drop;");
    }

    /** Whether {@code node} has a partition on. */
    public static boolean on(LxcNode node) {
        try {
            TestbedNetwork.run(node.inside(List.of("nft", "list", "table", "inet", TABLE)));
            return true;
        } catch (ClusterException e) {
            return false;
        }
    }

    /** Takes the partition off {@code node} (nothing if there is none). */
    public static void heal(LxcNode node) {
        if (on(node)) {
            TestbedNetwork.run(node.inside(List.of("nft", "delete", "table", "inet", TABLE)));
        }
    }

    private static void load(LxcNode node, String in, String out) {
        heal(node);
        TestbedNetwork.nft(
                node.inside(List.of()),
                "table inet " + TABLE + " {\n"
                        + "  chain in { type filter hook input priority -10; policy accept; " + in + " }\n"
                        + "  chain out { type filter hook output priority -10; policy accept; " + out + " }\n"
                        + "}\n");
    }
}
