"""Importers/exporters for graphs and document loaders."""
