package io.nearline.store.couchbase;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Runs a test class only where Testcontainers finds a Docker engine; elsewhere the class is reported
 * as skipped with the reason, never as passed.
 */
public final class RequiresDocker implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        boolean docker;
        try {
            docker = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            docker = false;
        }
        return docker
                ? ConditionEvaluationResult.enabled("Docker is available")
                : ConditionEvaluationResult.disabled("skipped: no Docker (Testcontainers found no Docker engine); "
                        + "this suite runs against a real Couchbase Server where Docker exists");
    }
}
