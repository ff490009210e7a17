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
package io.nearline.cacheupdater.storecouchbase;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

class RequiresDockerTest {

    private static final IllegalStateException NOT_FOUND =
            new IllegalStateException("Could not find a valid Docker environment.\nMore lines");

    @Test
    void aMachineWithoutDockerIsNamedSo() {
        String why = RequiresDocker.reason(NOT_FOUND, null, false);
        assertTrue(why.contains("no Docker engine on this machine"), why);
    }

    @Test
    void aBrokenSetUpIsNamedWithWhatBroke() {
        String why = RequiresDocker.reason(NOT_FOUND, "tcp://10.0.0.9:2375", false);
        assertTrue(why.contains("DOCKER_HOST=tcp://10.0.0.9:2375"), why);
        assertTrue(why.contains("unusable: IllegalStateException: Could not find a valid Docker environment."), why);
        assertFalse(why.contains("More lines"), "one line: " + why);
        assertTrue(RequiresDocker.reason(NOT_FOUND, null, true).contains("/var/run/docker.sock"));
    }

    @Test
    void withoutDockerTheSuiteIsSkippedWithTheReasonUnlessDockerIsRequired() {
        ConditionEvaluationResult skipped = RequiresDocker.decide(false, Optional.of("no Docker engine"));
        assertTrue(skipped.isDisabled());
        assertTrue(skipped.getReason().orElseThrow().contains("skipped: no Docker engine"));

        IllegalStateException failed = assertThrows(
                IllegalStateException.class, () -> RequiresDocker.decide(true, Optional.of("no Docker engine")));
        assertTrue(failed.getMessage().contains("-Dnearline.requireDocker=true but no Docker engine"));

        assertFalse(RequiresDocker.decide(true, Optional.empty()).isDisabled());
    }
}
