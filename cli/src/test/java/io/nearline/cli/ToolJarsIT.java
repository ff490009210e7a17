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
package io.nearline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The jars the tools run from (the front door's, each engine runner's, the broker's) carry every class
 * of ours that their classes use: a test-scoped dependency in a POM leaves it out of the jar while
 * every test still passes on Maven's classpath, and the command then fails for the user with
 * ClassNotFoundException. Read with the JDK's jdeps.
 */
class ToolJarsIT {

    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

    private static final List<String> JARS = List.of(
            "cli/target/nearline-local.jar",
            "local-cluster/flink-runner/target/nearline-flink-runner.jar",
            "local-cluster/samza-runner/target/nearline-samza-runner.jar",
            "local-cluster/connect-runner/target/nearline-connect-runner.jar",
            "local-cluster/kafka/target/nearline-kafka.jar");

    /** jdeps --missing-deps: "   from.Class -> to.Class   not found". */
    private static final Pattern MISSING =
            Pattern.compile("(?m)^\\s+(io\\.nearline\\.\\S+)\\s+->\\s+(io\\.nearline\\.\\S+)\\s+not found");

    @Test
    void everyToolJarCarriesTheClassesOfOursItUses() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        for (String jar : JARS) {
            Path file = CHECKOUT.resolve(jar);
            assertTrue(Files.isRegularFile(file), file + " is built before this test (the package phase)");
            StringWriter out = new StringWriter();
            PrintWriter writer = new PrintWriter(out);
            jdeps.run(writer, writer, "--multi-release", "17", "--missing-deps", file.toString());
            writer.flush();
            assertEquals(List.of(), missingOfOurs(out.toString()), jar + " lacks classes of ours that it uses");
        }
    }

    @Test
    void theCheckReadsAMissingClassOfOursAndNothingElse() {
        String report = String.join(
                "\n",
                "nearline-local.jar -> not found",
                "   io.nearline.localcluster.bench.BenchCdcCommand -> io.nearline.common.testkit.ChangeEventGenerator  not found",
                "   com.example.Lib -> javax.annotation.CheckForNull   not found",
                "   io.nearline.cacheupdater.storeredis.shaded.lettuce.A -> io.nearline.cacheupdater.storeredis.shaded.kotlin.B   not found",
                "   io.nearline.cli.NearlineCli -> io.nearline.jobs.kit.console.CliErrors   nearline-local.jar");
        assertEquals(
                List.of(
                        "io.nearline.localcluster.bench.BenchCdcCommand -> io.nearline.common.testkit.ChangeEventGenerator"),
                missingOfOurs(report));
    }

    /** The classes of ours a report says are used and not found; relocated third-party code is not ours. */
    static List<String> missingOfOurs(String jdepsReport) {
        Matcher m = MISSING.matcher(jdepsReport);
        return m.results()
                .filter(r -> !r.group(2).contains(".shaded."))
                .map(r -> r.group(1) + " -> " + r.group(2))
                .toList();
    }
}
