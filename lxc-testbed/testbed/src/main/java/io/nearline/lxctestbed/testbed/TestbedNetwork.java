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
import io.nearline.localcluster.cluster.ClusterCommand;
import io.nearline.localcluster.cluster.ClusterNetwork;
import io.nearline.localcluster.cluster.HostCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The testbed's network: a Linux bridge this machine owns (10.214.N.1/24), the LXC instances' veths on
 * it (10.214.N.11, .12, ...). The bridge gets a fixed MAC address: a bridge otherwise takes the lowest
 * MAC of its ports, so stopping one instance would change it and cut every node off at once. No NAT
 * and no default route: the instances reach this machine and each other, nothing else. The cache's
 * HTTP port binds every interface (CouchbaseMock has no setting for it), so an nftables table named
 * after the bridge lets only the bridge and loopback reach it.
 */
public record TestbedNetwork(String bridge, String prefix) implements ClusterNetwork {

    /** The testbed network of {@code dir}: names and addresses derived from its path. */
    public static TestbedNetwork of(Path dir) {
        int h = dir.toAbsolutePath().normalize().toString().hashCode() & 0xfff;
        return new TestbedNetwork("nltb" + String.format("%03x", h), "10.214." + (h & 0xff) + ".");
    }

    @Override
    public String name() {
        return bridge;
    }

    @Override
    public String serviceAddress() {
        return prefix + "1";
    }

    /** The address of node {@code n} (1-based). */
    public String nodeAddress(int n) {
        return prefix + (10 + n);
    }

    /** A fixed, locally administered MAC for the bridge (n = 0) or node n. */
    public String mac(int n) {
        String[] octets = prefix.split("\\.");
        return String.format("02:00:0a:d6:%02x:%02x", Integer.parseInt(octets[2]), n + 1);
    }

    public boolean exists() {
        return run(List.of("ip", "-o", "link", "show")).lines().anyMatch(l -> l.contains(" " + bridge + ":"));
    }

    @Override
    public void create() {
        if (exists()) {
            throw new ClusterException("bridge " + bridge + " exists already: a testbed is up there, or was not"
                    + " taken down; run 'bin/nearline testbed down' with the same --dir");
        }
        run(List.of("ip", "link", "add", bridge, "type", "bridge"));
        try {
            run(List.of("ip", "link", "set", bridge, "address", mac(0)));
            run(List.of("ip", "addr", "add", serviceAddress() + "/24", "dev", bridge));
            run(List.of("ip", "link", "set", bridge, "up"));
            nft(List.of(), guardRules());
        } catch (RuntimeException e) {
            delete();
            throw e;
        }
    }

    @Override
    public void delete() {
        if (exists()) {
            run(List.of("ip", "link", "delete", bridge));
        }
        if (guarded()) {
            run(List.of("nft", "delete", "table", "inet", bridge));
        }
    }

    /** Whether the table that guards the cache's HTTP port is in place. */
    public boolean guarded() {
        try {
            return run(List.of("nft", "list", "tables")).lines().anyMatch(l -> l.strip()
                    .equals("table inet " + bridge));
        } catch (ClusterException e) {
            return false; // no nftables here
        }
    }

    private String guardRules() {
        return "table inet " + bridge + " {\n"
                + "  chain input { type filter hook input priority 0; policy accept; "
                + "iifname != { \"lo\", \"" + bridge + "\" } tcp dport " + ClusterCommand.COUCHBASE_PORT + " drop; }\n"
                + "}\n";
    }

    /** Loads nftables {@code rules}, run with {@code prefix} (a node's namespace, or none for this machine). */
    static void nft(List<String> prefix, String rules) {
        Path file = null;
        try {
            file = Files.createTempFile("nearline-testbed", ".nft");
            Files.writeString(file, rules);
            List<String> command = new ArrayList<>(prefix);
            command.addAll(List.of("nft", "-f", file.toString()));
            run(command);
        } catch (IOException e) {
            throw new ClusterException("cannot write nftables rules: " + e.getMessage());
        } finally {
            if (file != null) {
                file.toFile().delete();
            }
        }
    }

    /** Services on this machine listen on the bridge's address directly. */
    @Override
    public List<String> wrap(List<String> command) {
        List<String> out = new ArrayList<>(List.of("setsid"));
        out.addAll(command);
        return out;
    }

    static String run(List<String> command) {
        return HostCommand.run(command, "");
    }
}
