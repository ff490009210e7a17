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

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(
        name = "heal",
        mixinStandardHelpOptions = true,
        description = "Take off whatever a drill may have left on the testbed: thaw and start its nodes, clear "
                + "their partitions and pipes, start the broker if it is gone, continue the store's process. "
                + "Every part is tried; exit 0 when all were healed, which also clears the mark of a drill that "
                + "could not heal (the next 'drill run' refuses a testbed so marked).")
final class TestbedHealCommand implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    TestbedCommand.Where where;

    @Override
    public Integer call() {
        Path dir = where.path();
        String before =
                TestbedHeal.faulted(dir).map(f -> " (left faulted: " + f + ")").orElse("");
        List<String> done = TestbedHeal.everything(dir);
        System.out.println("testbed healed" + before + ": "
                + (done.isEmpty()
                        ? "partitions and pipes cleared on every node"
                        : String.join(", ", done) + "; partitions and pipes cleared on every node"));
        return 0;
    }
}
