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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.LocalProcesses;
import io.nearline.common.testkit.Printed;
import io.nearline.common.testkit.RedisServerProcess;
import io.nearline.common.testkit.Required;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster up}, {@code status} and {@code down} on a real cluster in its own network namespace
 * (the broker and Debian's redis-server): what {@code up} starts answers from this machine, a second
 * {@code up} on the same directory is refused, and {@code down} leaves no process or network
 * behind. The deploys on such a cluster are tested through the front door, in the cli module.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ClusterLifeIT {

    /** Kept when the test fails: DIR/c/logs says why. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @BeforeAll
    static void canMakeACluster() {
        System.setProperty(
                "nearline.home", Path.of("../..").toAbsolutePath().normalize().toString());
        Optional<String> skip = Required.skipReason(
                Required.LXC_OR_ROOT,
                Optional.ofNullable(PrivateNetwork.unavailableReason()).or(RedisServerProcess::unavailableReason));
        skip.ifPresent(why -> System.out.println("cluster life IT " + why));
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
    }

    @Test
    void upStartsWhatAnswersAndDownLeavesNothingBehind() throws Exception {
        Path c = dir.resolve("c");
        Printed up = ClusterCli.run("up", "--store", "redis", "--dir", c.toString());
        Map<String, Long> pids;
        try {
            assertEquals(0, up.exit(), up.out());
            ClusterFile file = ClusterFile.read(c);
            pids = file.processes();
            assertEquals(Set.of("kafka", "redis"), pids.keySet(), up.out());
            pids.forEach((name, pid) -> assertTrue(Daemons.alive(pid, c), name + " is not running"));
            assertTrue(PrivateNetwork.of(c).exists());

            String kafkaAddress = file.kafkaBootstrapServers();
            String redisAddress = file.jobSettings().get("redis.servers").substring("redis://".length());
            assertTrue(Daemons.listening(redisAddress), "redis answers on " + redisAddress);
            KafkaClient kafka = KafkaClient.plaintext(kafkaAddress);
            KafkaTopics.createTopics(kafka, Map.of("life", 1));
            try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
                for (int i = 0; i < 5; i++) {
                    producer.send(new ProducerRecord<>("life", ("k" + i).getBytes(StandardCharsets.UTF_8), null));
                }
            }
            assertEquals(
                    5,
                    KafkaTopics.readToEnd(kafka, "life", Duration.ofSeconds(60)).size());

            Printed status = ClusterCli.run("status", "--dir", c.toString());
            assertEquals(0, status.exit(), status.out());
            assertTrue(status.out().contains(kafkaAddress), status.out());

            Printed check = ClusterCli.run("check", "--cluster", c.toString());
            assertEquals(0, check.exit(), check.out());
            assertTrue(check.out().contains("every address"), check.out());

            Printed again = ClusterCli.run("up", "--store", "redis", "--dir", c.toString());
            assertEquals(2, again.exit(), again.out());
            assertTrue(again.out().contains("already up"), again.out());
            pids.forEach((name, pid) -> assertTrue(Daemons.alive(pid, c), name + " survives the refused up"));
        } finally {
            Printed down = ClusterCli.run("down", "--dir", c.toString());
            assertEquals(0, down.exit(), down.out());
        }
        pids.forEach((name, pid) -> assertFalse(Daemons.alive(pid, c), name + " still runs after down"));
        // with the namespace its addresses are gone (connecting to them now would leave this machine)
        assertFalse(PrivateNetwork.of(c).exists(), "the network namespace is gone");
    }

    /** The negative control of {@code cluster check}: a cluster file whose addresses nothing answers. */
    @Test
    void checkNamesTheFirstAddressThatDoesNotAnswer() throws Exception {
        Path c = dir.resolve("nobody");
        int kafka = LocalProcesses.freePort();
        int redis = LocalProcesses.freePort();
        Printed init = ClusterCli.run(
                "init",
                "--dir",
                c.toString(),
                "--kafka",
                "127.0.0.1:" + kafka,
                "--redis",
                "redis://127.0.0.1:" + redis);
        assertEquals(0, init.exit(), init.out());
        Printed check = ClusterCli.run("check", "--cluster", c.toString());
        assertEquals(2, check.exit(), check.out());
        assertTrue(check.out().contains("FAILED  kafka 127.0.0.1:" + kafka), check.out());
        assertTrue(check.out().contains("FAILED  cache"), "every address is probed: " + check.out());
        assertTrue(
                check.out().lines().anyMatch(l -> l.startsWith("error: cluster check: kafka")),
                "the first failure on the last line: " + check.out());
    }
}
