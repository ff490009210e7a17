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

import io.nearline.common.testkit.Printed;
import io.nearline.localcluster.kit.console.CliErrors;
import picocli.CommandLine;

/**
 * {@code nearline cluster ...} run in the test's JVM with the front door's error handling: its exit code
 * and what it printed, out and err together.
 */
record ClusterCli(int exit, String out) {

    static ClusterCli run(String... args) {
        Printed p = Printed.by(
                () -> ClusterException.shownAsOneLine(CliErrors.install(new CommandLine(new ClusterCommand())))
                        .execute(args));
        return new ClusterCli(p.exit(), p.out());
    }
}
