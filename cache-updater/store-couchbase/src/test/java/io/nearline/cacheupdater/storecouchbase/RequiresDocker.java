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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Runs a test class only where Testcontainers reaches a Docker engine; elsewhere the class is reported
 * as skipped with the reason (no engine here, or one set up but unusable, and why), never as passed.
 * With {@code -Dnearline.requireDocker=true} a missing or broken Docker fails the class instead.
 */
public final class RequiresDocker implements ExecutionCondition {

    static final String REQUIRE = "nearline.requireDocker";
    private static final Path SOCKET = Path.of("/var/run/docker.sock");

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> whyNot = whyNoDocker();
        return decide(Boolean.getBoolean(REQUIRE), whyNot);
    }

    /** Enabled without a reason not to; skipped with it; failed with it when Docker is required. */
    static ConditionEvaluationResult decide(boolean required, Optional<String> whyNot) {
        if (whyNot.isEmpty()) {
            return ConditionEvaluationResult.enabled("Docker is available");
        }
        if (required) {
            throw new IllegalStateException(
                    "-D" + REQUIRE + "=true but " + whyNot.get() + "; this suite needs a real Couchbase Server");
        }
        return ConditionEvaluationResult.disabled("skipped: " + whyNot.get()
                + "; this suite runs against a real Couchbase Server where Docker works (-D" + REQUIRE
                + "=true makes that a failure)");
    }

    /** Why Testcontainers cannot run a container here, if it cannot. */
    private static Optional<String> whyNoDocker() {
        try {
            DockerClientFactory.instance().client();
            return Optional.empty();
        } catch (RuntimeException | LinkageError e) {
            return Optional.of(reason(e, System.getenv("DOCKER_HOST"), Files.exists(SOCKET)));
        }
    }

    /** Names a missing engine apart from one that is set up but broken (and then what broke). */
    static String reason(Throwable error, String dockerHost, boolean socketExists) {
        if (dockerHost == null && !socketExists) {
            return "no Docker engine on this machine (no " + SOCKET + ", DOCKER_HOST unset)";
        }
        String where = dockerHost != null ? "DOCKER_HOST=" + dockerHost : SOCKET.toString();
        String message = String.valueOf(error.getMessage()).lines().findFirst().orElse("");
        return "Docker is set up (" + where + ") but unusable: "
                + error.getClass().getSimpleName() + ": " + message;
    }
}
