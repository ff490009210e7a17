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
package io.nearline.jobs.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A client JVM run to completion under a limit, played by a shell: its exit and everything it printed
 * (both streams, as the user would have seen them), its environment as given, and one that does not
 * end within the limit ended, with what it printed so far.
 */
class ClientProcessTest {

    private static ClientProcess.Result sh(String script, Map<String, String> env, Duration limit) {
        return ClientProcess.run(List.of("sh", "-c", script), env, limit);
    }

    @Test
    void itsExitAndBothStreamsInTheOrderPrinted() {
        ClientProcess.Result r = sh("echo out; echo err >&2; echo more; exit 3", Map.of(), Duration.ofSeconds(30));
        assertEquals(3, r.exit());
        assertFalse(r.timedOut());
        assertEquals("out\nerr\nmore\n", r.output());
    }

    @Test
    void theEnvironmentGivenIsTheClients() {
        ClientProcess.Result r = sh(
                "echo \"$HADOOP_CONF_DIR\"", Map.of("HADOOP_CONF_DIR", "/etc/hadoop/nearline"), Duration.ofSeconds(30));
        assertEquals(0, r.exit());
        assertEquals("/etc/hadoop/nearline\n", r.output());
    }

    @Test
    void aClientThatDoesNotEndInTimeIsEndedWithWhatItPrinted() {
        long started = System.nanoTime();
        ClientProcess.Result r =
                sh("echo waiting for YARN; echo pid $$; exec sleep 60", Map.of(), Duration.ofMillis(500));
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(r.timedOut());
        assertEquals(-1, r.exit());
        assertTrue(r.output().startsWith("waiting for YARN\n"), r.output());
        assertTrue(tookMillis < 15_000, "ended, not waited for: " + tookMillis + " ms");
        Matcher pid = Pattern.compile("pid (\\d+)").matcher(r.output());
        assertTrue(pid.find(), r.output());
        assertFalse(
                ProcessHandle.of(Long.parseLong(pid.group(1)))
                        .map(ProcessHandle::isAlive)
                        .orElse(false),
                "the client is gone");
    }
}
