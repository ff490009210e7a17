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
package io.nearline.cacheupdater.storeredis.realserver;

import io.nearline.common.testkit.RedisServerProcess;
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
