package io.nearline.store.redis;

import io.nearline.localcluster.redis.RedisServerProcess;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class only where {@code redis-server} is installed; elsewhere the class is reported as
 * skipped with the reason, never as passed. With {@code -Dnearline.requireRedis=true} (CI sets it) a
 * missing server fails the class instead.
 */
public final class RequiresRedis implements ExecutionCondition {

    static final String REQUIRE = "nearline.requireRedis";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> whyNot = RedisServerProcess.unavailableReason();
        if (whyNot.isEmpty()) {
            return ConditionEvaluationResult.enabled("redis-server is installed");
        }
        if (Boolean.getBoolean(REQUIRE)) {
            throw new IllegalStateException("-D" + REQUIRE + "=true but " + whyNot.get());
        }
        return ConditionEvaluationResult.disabled("skipped: " + whyNot.get());
    }
}
