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
package io.nearline.cli.testbed;

import io.nearline.cli.NearlineCli;
import io.nearline.common.testkit.Required;
import io.nearline.lxctestbed.testbed.TestbedCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import picocli.CommandLine;

/** What the testbed's ITs share: the checkout as home, their skip (or failure, in CI), and the front door. */
final class LxcTestbedCli {

    private final StringWriter err = new StringWriter();

    /**
     * Skips the test, the reason printed, without root or LXC (fails instead where {@code
     * NEARLINE_REQUIRE_LXC} is true) or for {@code more}'s reason.
     */
    static void requireTestbed(String what, Optional<String> more) {
        System.setProperty(
                "nearline.home", Path.of("..").toAbsolutePath().normalize().toString());
        Optional<String> skip = Required.skipReason(
                        Required.LXC_OR_ROOT, Optional.ofNullable(TestbedCommand.unavailableReason()))
                .or(() -> more);
        skip.ifPresent(why -> System.out.println(what + " " + why));
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
    }

    /** Runs a command through the front door; its exit code (what it said on stderr: {@link #err}). */
    int nearline(String... args) {
        CommandLine cli = NearlineCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    String err() {
        return err.toString();
    }
}
