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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.testkit.Printed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code bench --summary-json} writes, held to the fields {@code docs/benchmarks.md} gives for
 * each bench: each bench run small on Flink, its summary read back, every documented field looked up
 * in the engine's member (a field in parentheses after another is nested in it), so that a summary
 * changed without its docs fails here.
 */
class BenchSummaryIT {

    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @BeforeAll
    static void findTheRunnersJars() {
        System.setProperty("nearline.home", CHECKOUT.toString()); // the engines' runners are forked from there
    }

    @Test
    void eachBenchsSummaryHasTheFieldsItsDocGives() throws IOException {
        String doc = Files.readString(CHECKOUT.resolve("docs/benchmarks.md"));
        assertDocumented(doc, "cdc", run("cdc", "--events", "4000", "--keys", "400"));
        assertDocumented(doc, "bootstrap", run("bootstrap", "--rows", "4000"));
        assertDocumented(doc, "join", run("join", "--requests", "300"));
    }

    /** The control: a field the summary lacks, or one not nested where the doc says, is caught. */
    @Test
    void aFieldTheSummaryLacksIsCaught() throws IOException {
        JsonNode member = new ObjectMapper()
                .readTree("{\"replay\":{},\"machineCpuMiBPerSec\":1,\"eventsPerSec\":5,\"cores\":{\"jvm\":1}}");
        assertEquals(List.of(), missing(member, "`eventsPerSec`, `cores` (`jvm`)"));
        assertEquals(List.of("verified"), missing(member, "`eventsPerSec`, `verified`"));
        assertEquals(List.of("cores.jobThreads"), missing(member, "`cores` (`jobThreads`, `jvm`)"));
    }

    private JsonNode run(String bench, String... size) throws IOException {
        Path summary = dir.resolve(bench + ".json");
        List<String> args = new ArrayList<>(List.of(
                "bench",
                bench,
                "--engine",
                "flink",
                "--work-dir",
                dir.resolve(bench).toString(),
                "--summary-json",
                summary.toString()));
        args.addAll(List.of(size));
        Printed run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exit(), run.out());
        return new ObjectMapper().readTree(summary.toFile()).get("flink");
    }

    private static void assertDocumented(String doc, String bench, JsonNode member) {
        assertTrue(member != null && member.isObject(), bench + ": no flink member");
        List<String> missing = missing(member, fields(doc, bench));
        assertEquals(List.of(), missing, bench + "'s summary lacks fields docs/benchmarks.md gives: " + member);
    }

    /** The fields cell of the bench's row in the {@code --summary-json} table, up to its "with ..." part. */
    static String fields(String doc, String bench) {
        Matcher row = Pattern.compile("(?m)^\\| " + Pattern.quote(bench) + " \\| (.*) \\|$")
                .matcher(doc);
        assertTrue(row.find(), "docs/benchmarks.md has no --summary-json row for " + bench);
        return row.group(1).split("; with ")[0];
    }

    /** The documented names {@code member} lacks: {@code replay} and {@code machineCpuMiBPerSec}, then the cell's. */
    static List<String> missing(JsonNode member, String cell) {
        List<String> out = new ArrayList<>();
        Stream.of("replay", "machineCpuMiBPerSec").filter(f -> !member.has(f)).forEach(out::add);
        Matcher m = Pattern.compile("`(\\w+)`( \\(([^)]*)\\))?").matcher(cell);
        while (m.find()) {
            String name = m.group(1);
            if (!member.has(name)) {
                out.add(name);
            } else if (m.group(3) != null) {
                Matcher nested = Pattern.compile("`(\\w+)`").matcher(m.group(3));
                while (nested.find()) {
                    if (!member.get(name).has(nested.group(1))) {
                        out.add(name + "." + nested.group(1));
                    }
                }
            }
        }
        assertFalse(cell.isBlank(), "an empty row");
        return out;
    }
}
