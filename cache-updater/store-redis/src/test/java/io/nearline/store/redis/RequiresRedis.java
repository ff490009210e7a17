package io.nearline.store.redis;

import io.nearline.store.redis.testkit.RedisServerProcess;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class only where {@code redis-server} is installed; elsewhere the class is reported as
 * skipped with the reason, never as passed. Where CI requires Redis ({@link RedisServerProcess#skipReason})
 * a missing server fails the class instead.
 */
public final class RequiresRedis implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return RedisServerProcess.skipReason()
                .map(ConditionEvaluationResult::disabled)
                .orElse(ConditionEvaluationResult.enabled("redis-server is installed"));
    }
}
