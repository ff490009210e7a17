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
package io.nearline.localcluster.sourcesimulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.localcluster.cdcreference.CoreReplay;
import io.nearline.localcluster.cdcreference.ReplayInput;
import io.nearline.localcluster.cdcreference.Scenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checker over files: a replay's state dump against the change log it was made from. */
class ChangeLogCheckTest {

    @TempDir
    Path dir;

    @Test
    void aCorrectStateDumpHasNoDivergenceAndATamperedOneIsCaught() throws Exception {
        Path events = Scenarios.copy("edge-cases.jsonl", dir);
        List<String> state = CoreReplay.run(
                        ReplayInput.read(List.of(events)),
                        new InMemoryCacheStore(),
                        WriterSettings.defaults(),
                        1024 * 1024)
                .state();
        Path good = Files.write(dir.resolve("good.jsonl"), state);
        ChangeLogTruth truth = new ChangeLogTruth(List.of(events), 1024 * 1024);
        StateDumpView view = new StateDumpView(good);
        DivergenceChecker.Report ok = DivergenceChecker.check(truth, view, view.keys(), 0);
        assertTrue(ok.converged(), ok.summary());

        List<String> tampered = new ArrayList<>();
        for (String line : state) {
            if (line.contains("\"key\":\"revived\"")) {
                continue; // lost
            }
            tampered.add(
                    line.contains("\"key\":\"same-scn\"")
                            ? line.replace("\"schemaVersion\":2", "\"schemaVersion\":1")
                            : line);
        }
        tampered.add("{\"key\":\"never-there\",\"scn\":1,\"schemaVersion\":1,\"tombstone\":false,\"payload\":\"x\"}");
        StateDumpView bad = new StateDumpView(Files.write(dir.resolve("bad.jsonl"), tampered));
        DivergenceChecker.Report report = DivergenceChecker.check(truth, bad, bad.keys(), 0);
        assertEquals(1, report.count(DivergenceChecker.Kind.MISSING), report.summary());
        assertEquals(1, report.count(DivergenceChecker.Kind.STALE), report.summary());
        assertEquals(1, report.count(DivergenceChecker.Kind.EXTRA), report.summary());
        assertTrue(Files.exists(good));
    }
}
