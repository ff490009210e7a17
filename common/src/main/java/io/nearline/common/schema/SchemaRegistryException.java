package io.nearline.common.schema;

/** A schema registration that breaks the evolution rules, or a registry that cannot be read. */
public class SchemaRegistryException extends RuntimeException {
    public SchemaRegistryException(String message) {
        super(message);
    }

    public SchemaRegistryException(String message, Throwable cause) {
        super(message, cause);
    }
}
