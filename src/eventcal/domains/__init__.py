"""The domains: one package per group of collections (events; places for venues and organizers;
terms for categories and tags; accounts for users). Each declares its collections; none imports
another (the registry binds their relations by name)."""
