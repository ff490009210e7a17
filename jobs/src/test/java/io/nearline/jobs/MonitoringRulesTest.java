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
package io.nearline.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.PrometheusServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped monitoring ({@code jobs/monitoring/}): the rules are valid, every alert fires on its
 * condition and resolves after it ({@code promtool test rules}), a runtime's series renamed makes those
 * tests fail, and the dashboard queries only series the rules record (or the verifier exports). That
 * the rules' inputs are what the runtimes really export is the runtimes' ITs' part
 * ({@code FreshnessPrometheusIT} scrapes a running Flink job through Prometheus with these rules).
 */
class MonitoringRulesTest {

    static final Path MONITORING = Path.of("monitoring");
    /** Series no rule records: the verifier exports them itself. */
    private static final Set<String> EXPORTED_BY_THE_VERIFIER = Set.of("nearline_verify_divergent");

    private static void assumePrometheus() {
        Optional<String> skip = PrometheusServer.skipReason();
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
    }

    @Test
    void theRulesAreValidAndEveryAlertFiresAndResolves() throws Exception {
        assumePrometheus();
        PrometheusServer.Result check = PrometheusServer.promtool(MONITORING, "check", "rules", "nearline-rules.yaml");
        assertEquals(0, check.exit(), check.output());
        PrometheusServer.Result test =
                PrometheusServer.promtool(MONITORING, "test", "rules", "nearline-rules-test.yaml");
        assertEquals(0, test.exit(), test.output());
        for (String alert : names("alert: (\\w+)", rules())) {
            assertTrue(
                    Files.readString(MONITORING.resolve("nearline-rules-test.yaml"))
                            .contains("alertname: " + alert),
                    alert + " has no promtool test");
        }
    }

    /** The negative control: the same tests on rules that read a runtime's series under a wrong name. */
    @Test
    void aRenamedSeriesFailsTheRuleTests(@TempDir Path dir) throws Exception {
        assumePrometheus();
        Files.writeString(
                dir.resolve("nearline-rules.yaml"),
                rules().replace("nearline_connect_consistent_through", "nearline_connect_consistent_thru"));
        Files.copy(MONITORING.resolve("nearline-rules-test.yaml"), dir.resolve("nearline-rules-test.yaml"));
        PrometheusServer.Result test = PrometheusServer.promtool(dir, "test", "rules", "nearline-rules-test.yaml");
        assertNotEquals(0, test.exit(), test.output());
        assertTrue(test.output().contains("nearline_consistent_through_seconds"), test.output());
    }

    @Test
    void theDashboardQueriesOnlySeriesTheRulesRecordOrTheVerifierExports() throws Exception {
        Set<String> recorded = names("record: (\\S+)", rules());
        recorded.addAll(EXPORTED_BY_THE_VERIFIER);
        String dashboard = Files.readString(MONITORING.resolve("nearline-dashboard.json"));
        Set<String> queried =
                names("(nearline_[a-z_:0-9]+)", String.join("\n", PrometheusServer.dashboardQueries(dashboard)));
        assertTrue(queried.size() >= 6, "the dashboard's queries: " + queried);
        for (String series : queried) {
            assertTrue(recorded.contains(series), series + " is queried by the dashboard but nothing records it");
        }
    }

    private static String rules() throws Exception {
        return Files.readString(MONITORING.resolve("nearline-rules.yaml"));
    }

    private static Set<String> names(String regex, String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            out.add(m.group(1).replace("\\\"", "\""));
        }
        return out;
    }
}
