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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.Daemons;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verifier deployed as a process beside a cluster: its command from the descriptor, and its stop. */
class VerifierDeployTest {

    @TempDir
    Path dir;

    private static final Path SHIPPED = Path.of("../../jobs/deploy/verifier-postgres.yaml");

    private ClusterFile cluster() throws IOException {
        Files.writeString(
                dir.resolve("cluster.yaml"),
                "kafka: 127.0.0.1:9092\nstore: couchbase\n" + "couchbase:\n  connection: couchbase://127.0.0.1\n");
        return ClusterFile.read(dir);
    }

    @Test
    void theShippedDescriptorRunsVerifyWithItsOptionsUnderItsName() throws IOException {
        Descriptor d = Descriptor.read(SHIPPED);
        List<String> command =
                VerifierDeploy.command(d, cluster(), Map.of("every", "3s", "cache.ttl", "1d"), Path.of("/opt/nl"));
        assertTrue(command.contains(Daemons.marker(dir)), "marked as the cluster's: " + command);
        assertTrue(command.contains("/opt/nl/cli/target/nearline-local.jar"), command.toString());
        List<String> args = command.subList(command.indexOf("verify"), command.size());
        assertEquals(
                List.of(
                        "verify",
                        "--cluster",
                        dir.toString(),
                        "--name",
                        "nearline-verifier-postgres",
                        "--source",
                        "postgres",
                        "--every",
                        "3s",
                        "--keys-per-round",
                        "10000",
                        "--in-flight",
                        "60s",
                        "--metrics-port",
                        "9464",
                        "--set",
                        "cache.ttl=1d"),
                args);
    }

    @Test
    void aMistakeIsNamedBeforeAnythingStarts() throws IOException {
        Descriptor d = Descriptor.read(SHIPPED);
        ClusterFile c = cluster();
        String typo = assertThrows(
                        ClusterException.class,
                        () -> VerifierDeploy.command(d, c, Map.of("keys-per-rond", "5"), Path.of("/opt/nl")))
                .getMessage();
        assertTrue(typo.contains("unknown verifier setting 'keys-per-rond' (did you mean 'keys-per-round'?)"), typo);
        Path elsewhere = Files.writeString(
                dir.resolve("k8s.yaml"),
                "job: verifier\nengine: process\ntarget: kubernetes\nsettings:\n  source: x\n");
        assertTrue(assertThrows(ClusterException.class, () -> Descriptor.read(elsewhere))
                .getMessage()
                .contains("runs from Nearline's tools as a process beside the cluster"));
        Path onFlink = Files.writeString(
                dir.resolve("flink.yaml"), "job: verifier\nengine: flink\ntarget: flink-session\nartifact: x.jar\n");
        assertTrue(assertThrows(ClusterException.class, () -> Descriptor.read(onFlink))
                .getMessage()
                .contains("engine: process, target: process"));
        Path noSource =
                Files.writeString(dir.resolve("bare.yaml"), "job: verifier\nengine: process\ntarget: process\n");
        assertTrue(assertThrows(
                        ClusterException.class,
                        () -> VerifierDeploy.command(Descriptor.read(noSource), c, Map.of(), Path.of("/opt/nl")))
                .getMessage()
                .contains("needs settings.source"));
    }

    /** A process marked as the cluster's, standing in for a verifier: listed, then stopped by its pid alone. */
    @Test
    void aRunningVerifierIsListedAndStoppedWithItsTarget() throws Exception {
        ClusterFile c = cluster();
        Process stand = new ProcessBuilder("bash", "-c", "sleep 120; exit 0", Daemons.marker(dir)).start();
        Process other = new ProcessBuilder("bash", "-c", "sleep 120; exit 0", "-Dnearline.cluster=/elsewhere").start();
        try {
            Files.createDirectories(dir.resolve("services"));
            Files.writeString(Daemons.servicePid(dir, "v1"), stand.pid() + "\n");
            // a pid file naming a process of no cluster of ours: never stopped (the control)
            Files.writeString(Daemons.servicePid(dir, "v2"), other.pid() + "\n");
            ClusterPrometheus.targets(dir, "v1", List.of("127.0.0.1:9464"), Map.of("job", "v1"));

            List<String[]> rows = VerifierDeploy.list(c);
            assertArrayEquals(new String[] {"verifier:v1", "v1", "RUNNING"}, rows.get(0));
            assertArrayEquals(new String[] {"verifier:v2", "v2", "ENDED"}, rows.get(1));
            assertTrue(VerifierDeploy.running(c, "v1").isPresent());

            assertEquals(0, VerifierDeploy.stop(c, "v1"));
            // ended: the JVM reaps its child on a thread of its own, so wait for that rather than look once
            assertTrue(stand.waitFor(10, TimeUnit.SECONDS), "the verifier ended");
            assertFalse(Files.exists(dir.resolve("prometheus/targets/v1.json")), "its target gone");
            assertEquals(0, VerifierDeploy.stop(c, "v2"));
            assertTrue(other.isAlive(), "a process not marked as this cluster's is left alone");
            assertEquals(Map.of(), Daemons.services(dir));
            assertThrows(ClusterException.class, () -> VerifierDeploy.stop(c, "v1"));
        } finally {
            stand.destroyForcibly();
            other.destroyForcibly();
        }
    }
}
