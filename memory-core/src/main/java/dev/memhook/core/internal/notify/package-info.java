/**
 * Telling listeners what happened, off the hook's path ({@link
 * dev.memhook.core.internal.notify.ListenerDispatch}), and keeping the recent receipts a host can
 * query ({@link dev.memhook.core.internal.notify.ReceiptBook}).
 */
package dev.memhook.core.internal.notify;
