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
package io.nearline.jobs.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.Printed;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterInit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy --dry-run}, the user's look at what a deploy would submit, on clusters named by
 * {@code cluster init} (addresses only, nothing reached): every shipped Flink descriptor resolves with the
 * cluster's addresses and the user's overrides, no password is printed, and what the job would refuse
 * at its start is refused here, in one line, before anything is shown as if it would run.
 */
class DeployDryRunTest {

    private static final String PASSWORD = "s3cret-redis";

    @TempDir
    static Path dir;

    private static Path session;
    private static Path yarn;
    private static String before;

    /** A command with the front door's error handling, run here: its exit code and what it printed. */
    private static Printed nearline(Object command, String... args) {
        return Printed.by(() -> ClusterException.commandLine(command).execute(args));
    }

    /** {@code deploy DESCRIPTOR --cluster SESSION MORE...}: a shipped descriptor on the session cluster. */
    private static Printed onSession(String shippedName, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of(shipped(shippedName), "--cluster", session.toString()));
        args.addAll(List.of(more));
        return nearline(new DeployCommand(), args.toArray(String[]::new));
    }

    @BeforeAll
    static void clusters() throws Exception {
        before = System.getProperty("nearline.home");
        System.setProperty(
                "nearline.home", Path.of("../..").toAbsolutePath().normalize().toString());
        Path password = Files.writeString(dir.resolve("redis.password"), PASSWORD);
        Path hadoop = Files.createDirectories(dir.resolve("hadoop"));
        Files.writeString(
                hadoop.resolve("yarn-site.xml"),
                "<configuration><property><name>yarn.resourcemanager.hostname</name><value>127.0.0.1</value>"
                        + "</property></configuration>");
        Path packages = Files.createDirectories(dir.resolve("packages"));
        session = dir.resolve("session");
        yarn = dir.resolve("yarn");
        List<String> common = List.of(
                "--kafka",
                "127.0.0.1:19092",
                "--redis",
                "redis://127.0.0.1:16379",
                "--redis-password",
                "file:" + password);
        List<String> first =
                new ArrayList<>(List.of("--dir", session.toString(), "--flink-rest", "http://127.0.0.1:18081"));
        first.addAll(common);
        assertEquals(
                0, nearline(new ClusterInit(), first.toArray(String[]::new)).exit());
        List<String> second = new ArrayList<>(List.of(
                "--dir",
                yarn.toString(),
                "--yarn-conf",
                hadoop.toString(),
                "--packages",
                packages.toUri().toString()));
        second.addAll(common);
        Printed init = nearline(new ClusterInit(), second.toArray(String[]::new));
        assertEquals(0, init.exit(), init.out());
    }

    @AfterAll
    static void restoreHome() {
        if (before == null) {
            System.clearProperty("nearline.home");
        } else {
            System.setProperty("nearline.home", before);
        }
    }

    /** A shipped descriptor with its artifact a placeholder file: the dry run names it, never opens it. */
    private static String shipped(String name) throws Exception {
        Path file = Path.of("../../jobs/deploy", name);
        String text = Files.readString(file);
        String artifact = text.lines()
                .filter(l -> l.startsWith("artifact:"))
                .findFirst()
                .orElseThrow()
                .replaceFirst("artifact:\\s*", "")
                .replaceFirst("\\s*#.*", "");
        Path placeholder = Files.createDirectories(dir.resolve("dist")).resolve(artifact);
        Files.writeString(placeholder, "not a jar");
        return Files.writeString(dir.resolve(name), text.replaceFirst("(?m)^artifact:.*$", "artifact: " + placeholder))
                .toString();
    }

    /** The shipped descriptors of Flink jobs for {@code target}, by file name, as the deploy reads them. */
    private static List<String> shippedFlink(String target) throws Exception {
        try (Stream<Path> files = Files.list(Path.of("../../jobs/deploy"))) {
            // the descriptors sit beside this module's own files (pom.xml, src/)
            return files.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> {
                        Descriptor d = Descriptor.read(f);
                        return d.engine().equals("flink") && d.target().equals(target);
                    })
                    .map(f -> f.getFileName().toString())
                    .sorted()
                    .toList();
        }
    }

    @Test
    void everyShippedFlinkDescriptorResolvesWithTheClustersAddressesAndNoPassword() throws Exception {
        for (String target : List.of("flink-session", "yarn")) {
            Path cluster = target.equals("yarn") ? yarn : session;
            List<String> names = shippedFlink(target);
            assertFalse(names.isEmpty(), "shipped descriptors for " + target);
            for (String name : names) {
                Printed r = nearline(new DeployCommand(), shipped(name), "--cluster", cluster.toString(), "--dry-run");
                assertEquals(0, r.exit(), name + ": " + r.out());
                assertTrue(r.out().contains("(dry run: nothing submitted)"), r.out());
                assertTrue(r.out().contains("--set kafka.bootstrap-servers=127.0.0.1:19092"), name + ": " + r.out());
                assertTrue(r.out().contains("redis.servers=redis://127.0.0.1:16379"), name);
                assertTrue(r.out().contains(target.equals("yarn") ? "-t yarn-application" : "--detached"), name);
                assertFalse(r.out().contains(PASSWORD), name + " prints the password");
            }
        }
    }

    @Test
    void theUsersOverrideWinsOverTheDescriptor() throws Exception {
        Printed r = onSession("cache-updater-flink-session.yaml", "--dry-run", "--set", "write.threads=9");
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("--set write.threads=9"), r.out());
        assertFalse(r.out().contains("write.threads=4"), "the descriptor's own value is replaced: " + r.out());
    }

    @Test
    void whatTheJobWouldRefuseAtItsStartIsRefusedInTheDryRun() throws Exception {
        Printed badValue = onSession("cache-updater-flink-session.yaml", "--dry-run", "--set", "cache.ttl=soon");
        assertEquals(2, badValue.exit(), badValue.out());
        assertTrue(
                badValue.out().startsWith("error: ") && badValue.out().contains("'cache.ttl' = 'soon'"),
                badValue.out());
        assertFalse(badValue.out().contains("dry run"), "nothing shown as if it would run: " + badValue.out());

        Printed misspelt = onSession("cache-updater-flink-session.yaml", "--dry-run", "--set", "cache.tll=1d");
        assertEquals(2, misspelt.exit(), misspelt.out());
        assertTrue(misspelt.out().contains("Did you mean 'cache.ttl'?"), misspelt.out());

        Printed inline = onSession("cache-updater-flink-session.yaml", "--dry-run", "--set", "redis.password=hunter2");
        assertEquals(2, inline.exit(), inline.out());
        assertTrue(inline.out().contains("'redis.password'"), inline.out());
        assertFalse(inline.out().contains("hunter2"), "the secret is not repeated: " + inline.out());

        Printed join =
                onSession("tracking-join-flink-session.yaml", "--dry-run", "--set", "join.emit-complete=sometimes");
        assertEquals(2, join.exit(), join.out());
        assertTrue(join.out().contains("join.emit-complete"), join.out());
    }

    @Test
    void aDeployTheClusterCannotTakeIsRefusedBeforeAnythingIsResolved() throws Exception {
        Printed noYarn = onSession("cache-updater-flink-yarn.yaml", "--dry-run");
        assertEquals(2, noYarn.exit(), noYarn.out());
        assertTrue(noYarn.out().contains("has no YARN"), noYarn.out());

        Printed out = onSession(
                "cache-updater-flink-session.yaml", "--out", dir.resolve("k8s").toString());
        assertEquals(2, out.exit(), out.out());
        assertTrue(out.out().contains("--out is for target kubernetes"), out.out());

        Printed savepoint = onSession("cache-updater-flink-session.yaml", "--from-savepoint", dir.toString());
        assertEquals(2, savepoint.exit(), savepoint.out());
        assertTrue(savepoint.out().contains("is not a savepoint"), savepoint.out());
    }
}
