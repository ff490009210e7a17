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
import java.util.ArrayList;
import java.util.List;

/**
 * One testbed node: an LXC application container ({@code lxc-execute}) sharing this machine's root
 * filesystem, so the build's jars and the package directory are at the same paths inside, with a
 * network namespace of its own on the testbed's bridge. The configuration lines are the ones that
 * work on these kernels (docs/testbed.md).
 */
public record LxcNode(String name, int number, String address, String mac, Path lxcPath, String bridge) {

    /**
     * Writes the instance's LXC configuration. Its host name is its address: YARN's daemons and
     * application masters advertise their host name, and an address needs no resolving on this
     * machine or any node. {@code hosts} is mounted over its /etc/hosts (the instances share this
     * machine's files): localhost, and this machine's name at its bridge address.
     */
    public Path writeConfig(Path hosts) throws IOException {
        Files.createDirectories(lxcPath);
        Path conf = lxcPath.resolve(name + ".conf");
        Files.writeString(
                conf,
                String.join(
                        "\n",
                        "lxc.uts.name = " + address,
                        "lxc.apparmor.profile = unconfined",
                        "lxc.console.path = none",
                        "lxc.tty.max = 0",
                        "lxc.pty.max = 16",
                        "lxc.mount.auto = proc:mixed sys:mixed",
                        "lxc.mount.entry = " + hosts.toAbsolutePath() + " etc/hosts none bind,ro 0 0",
                        "lxc.net.0.type = veth",
                        "lxc.net.0.link = " + bridge,
                        "lxc.net.0.flags = up",
                        "lxc.net.0.hwaddr = " + mac,
                        "lxc.net.0.veth.pair = " + hostLink(),
                        "lxc.net.0.ipv4.address = " + address + "/24",
                        // back within a second of a healed partition instead of after TCP's backoff of minutes
                        "lxc.sysctl.net.ipv4.tcp_rto_max_ms = 1000",
                        ""));
        return conf;
    }

    /** The command that runs {@code command} as this instance's application, in a session of its own. */
    public List<String> execute(List<String> command) {
        List<String> out = new ArrayList<>(List.of(
                "setsid",
                "lxc-execute",
                "-n",
                name,
                "-P",
                lxcPath.toString(),
                "-f",
                lxcPath.resolve(name + ".conf").toString(),
                "--"));
        out.addAll(command);
        return out;
    }

    /** RUNNING, STOPPED, FROZEN, ... as LXC reports it; STOPPED when LXC does not know it. */
    public String state() {
        try {
            return TestbedNetwork.run(List.of("lxc-info", "-n", name, "-P", lxcPath.toString(), "-s", "-H"))
                    .strip();
        } catch (RuntimeException e) {
            return "STOPPED";
        }
    }

    /** The routes inside the instance (its network namespace, entered through its init process). */
    public String routes() {
        return TestbedNetwork.run(inside(List.of("ip", "route")));
    }

    /** The host's end of the instance's veth, named so that pipes can shape it. */
    public String hostLink() {
        return bridge + "n" + number;
    }

    /** The command that runs {@code command} in the instance's network namespace (as this machine's process). */
    public List<String> inside(List<String> command) {
        String pid = TestbedNetwork.run(List.of("lxc-info", "-n", name, "-P", lxcPath.toString(), "-p", "-H"))
                .strip();
        List<String> out = new ArrayList<>(List.of("nsenter", "-t", pid, "-n"));
        out.addAll(command);
        return out;
    }

    /**
     * Freezes every process of the instance (its cgroup), as a machine that hangs; {@link #thaw} resumes
     * them. Through the cgroup v1 freezer where the host mounts one: on these hybrid hosts lxc-freeze
     * tries the unified hierarchy and fails.
     */
    public void freeze() {
        setFreezer("FROZEN", "lxc-freeze");
    }

    public void thaw() {
        setFreezer("THAWED", "lxc-unfreeze");
    }

    /** Whether the instance's processes are frozen. */
    public boolean frozen() {
        try {
            return Files.exists(freezer())
                    ? Files.readString(freezer()).strip().equals("FROZEN")
                    : state().equals("FROZEN");
        } catch (IOException e) {
            return false;
        }
    }

    private void setFreezer(String state, String tool) {
        if (!Files.exists(freezer())) {
            TestbedNetwork.run(List.of(tool, "-n", name, "-P", lxcPath.toString()));
            return;
        }
        try {
            Files.writeString(freezer(), state);
        } catch (IOException e) {
            throw new ClusterException("cannot set " + freezer() + " to " + state + ": " + e.getMessage());
        }
    }

    private Path freezer() {
        return Path.of("/sys/fs/cgroup/freezer/lxc.payload." + name + "/freezer.state");
    }

    /** Stops the instance hard (every process in it); nothing if it is not running. */
    public void kill() {
        if (!state().equals("STOPPED")) {
            TestbedNetwork.run(List.of("lxc-stop", "-n", name, "-P", lxcPath.toString(), "-k"));
        }
    }
}
