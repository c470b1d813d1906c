/**
 * The benchmarks, as a host would declare itself: they read Memhook's exported packages and the
 * libraries they measure against, and export nothing. They run from a shaded jar on the class path
 * (JMH's runner and the harnesses' {@code main} methods); this descriptor makes javac refuse any
 * use of a package a Memhook module does not export, as it does for the library modules.
 *
 * <p>The "requires-automatic" lint is suppressed here only: JMH and LangChain4j ship no module
 * name, so they are required by the names javac derives for them.
 */
@SuppressWarnings("requires-automatic")
module dev.memhook.benchmarks {
  requires dev.memhook.core;
  requires dev.memhook.lucene;
  requires dev.memhook.testkit;
  requires dev.memhook.djl;
  requires dev.memhook.postgres;
  requires dev.memhook.cli;
  requires com.fasterxml.jackson.databind;
  requires com.zaxxer.hikari;
  requires java.management;
  requires jdk.httpserver;
  requires java.sql;
  requires jmh.core;
  requires langchain4j;
  requires langchain4j.core;
  requires org.apache.lucene.core;
  requires org.apache.lucene.analysis.common;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.util;
}
