"""What an operator watches: the Prometheus metrics (``metrics``) and the health check and
the routes that serve both (``server``)."""
