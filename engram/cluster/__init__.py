"""The split topology on one host: a launcher (``engram cluster up``) and a
front router that gives the services one address."""
