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
package io.nearline.localcluster.joinreplay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nearline.common.config.Config;
import io.nearline.common.config.JobKeys;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The settings a {@code replay join} runs its job with, in the order a user expects them to win: the
 * settings file, then the replay's own options (the window, the lateness, the broker it started), then
 * {@code --set}.
 */
class ReplayJoinOptionsTest {

    @TempDir
    Path dir;

    @Command(name = "join")
    static final class Join {
        @Mixin
        ReplayJoinOptions options;
    }

    private ReplayJoinOptions parsed(String... more) {
        List<String> args = new ArrayList<>(List.of(
                "--index",
                "index.jsonl",
                "--broker",
                "broker.jsonl",
                "--out-dir",
                dir.resolve("out").toString()));
        args.addAll(List.of(more));
        Join join = new Join();
        new CommandLine(join).parseArgs(args.toArray(String[]::new));
        return join.options;
    }

    private static Duration window(Config c) {
        return c.get(JoinSettings.WINDOW);
    }

    @Test
    void theJobDefaultsAndTheReplaysBrokerWithoutOptions() {
        Config c = parsed().jobConfig("127.0.0.1:29092");
        assertEquals("127.0.0.1:29092", c.get(JobKeys.BOOTSTRAP_SERVERS));
        assertEquals(JoinSettings.WINDOW.defaultValue(), window(c));
    }

    @Test
    void theFileThenTheReplaysOptionsThenSet() throws Exception {
        Path file = Files.writeString(dir.resolve("join.properties"), "join.window=7s\njoin.allowed-lateness=3s\n");
        assertEquals(
                Duration.ofSeconds(7),
                window(parsed("--config", file.toString()).jobConfig("b:1")),
                "the file");

        Config options = parsed("--config", file.toString(), "--window-ms", "2000", "--lateness-ms", "500")
                .jobConfig("b:1");
        assertEquals(Duration.ofMillis(2000), window(options), "the replay's option over the file");
        assertEquals(Duration.ofMillis(500), options.get(JoinSettings.ALLOWED_LATENESS));

        Config set = parsed("--config", file.toString(), "--window-ms", "2000", "--set", "join.window=5s")
                .jobConfig("b:1");
        assertEquals(Duration.ofSeconds(5), window(set), "--set over everything");
        assertEquals(Duration.ofSeconds(3), set.get(JoinSettings.ALLOWED_LATENESS), "the rest from the file");
    }
}
