/**
 * Spring Boot auto-configuration: a {@link dev.memhook.api.MemoryService} and a {@link
 * dev.memhook.springai.MemhookAdvisor} from the {@code memhook.*} properties.
 */
package dev.memhook.springai.autoconfigure;
