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
package io.nearline.localcluster.cluster;

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.PrivateLink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The network a local cluster runs in: a network namespace of its own joined to this machine by one
 * veth pair on a private /30 (10.213.x.y), with no default route, so nothing inside reaches past this
 * machine and nothing outside it reaches in. Daemons that bind every interface (CouchbaseMock's HTTP
 * port, Prometheus reporters, YARN's application masters) are then only reachable from here. Needs
 * root and iproute2.
 */
public record PrivateNetwork(String namespace, String hostAddress, String clusterAddress) implements ClusterNetwork {

    @Override
    public String name() {
        return namespace;
    }

    @Override
    public String serviceAddress() {
        return clusterAddress;
    }

    /** The network of the cluster in {@code dir}: names and addresses derived from its path ({@link PrivateLink}). */
    public static PrivateNetwork of(Path dir) {
        PrivateLink link = PrivateLink.of(dir);
        return new PrivateNetwork(link.namespace(), link.hostAddress(), link.clusterAddress());
    }

    private String hostLink() {
        return "nl" + namespace.substring("nearline-".length()) + "h";
    }

    private String clusterLink() {
        return "nl" + namespace.substring("nearline-".length()) + "c";
    }

    public boolean exists() {
        return run(List.of("ip", "netns", "list")).lines().anyMatch(l -> l.split(" ")[0].equals(namespace));
    }

    @Override
    public void create() {
        if (exists()) {
            throw new ClusterException("network namespace " + namespace + " exists already: a cluster is up there,"
                    + " or was not taken down; run 'bin/nearline cluster down' with the same --dir");
        }
        sh("ip", "netns", "add", namespace);
        try {
            sh("ip", "link", "add", hostLink(), "type", "veth", "peer", "name", clusterLink());
            sh("ip", "link", "set", clusterLink(), "netns", namespace);
            sh("ip", "addr", "add", hostAddress + "/30", "dev", hostLink());
            sh("ip", "link", "set", hostLink(), "up");
            inside("ip", "addr", "add", clusterAddress + "/30", "dev", clusterLink());
            inside("ip", "link", "set", clusterLink(), "up");
            inside("ip", "link", "set", "lo", "up");
            writeHosts();
        } catch (RuntimeException e) {
            delete();
            throw e;
        }
    }

    /** Removes the namespace (and with it the veth pair); nothing if it is gone already. */
    @Override
    public void delete() {
        if (exists()) {
            sh("ip", "netns", "delete", namespace);
        }
        try {
            Files.deleteIfExists(hostsDir().resolve("hosts"));
            Files.deleteIfExists(hostsDir());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path hostsDir() {
        return Path.of("/etc/netns", namespace);
    }

    /**
     * The namespace's own {@code /etc/hosts} ({@code ip netns exec} mounts {@code /etc/netns/NS/hosts}
     * over it): this machine's name resolves to the cluster's address inside, as YARN's application
     * masters advertise the host name to their containers.
     */
    private void writeHosts() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            Files.createDirectories(hostsDir());
            Files.writeString(
                    hostsDir().resolve("hosts"), "127.0.0.1 localhost\n" + clusterAddress + " " + name + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The command that runs {@code command} inside the namespace, in a session of its own. */
    @Override
    public List<String> wrap(List<String> command) {
        List<String> out = new ArrayList<>(List.of("setsid", "ip", "netns", "exec", namespace));
        out.addAll(command);
        return out;
    }

    private void inside(String... command) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        c.addAll(List.of(command));
        run(c);
    }

    private static void sh(String... command) {
        run(List.of(command));
    }

    private static String run(List<String> command) {
        return HostCommand.run(command, "the local cluster needs root and iproute2 for its private network");
    }

    /** Whether this machine can make such networks: root and the ip command. */
    public static String unavailableReason() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "the local cluster's private network needs root (network namespaces)";
        }
        try {
            Process p = new ProcessBuilder("ip", "netns", "list")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0 ? null : "'ip netns' does not work here";
        } catch (IOException e) {
            return "iproute2 ('ip') is not installed";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
