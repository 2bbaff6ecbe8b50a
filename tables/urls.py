from django.urls import include, path

# One URL module per area so that each can grow without touching the others.
urlpatterns = [
    path("", include("tables.urls_site")),
    path("", include("tables.urls_table")),
    path("", include("tables.urls_momenta")),
    path("", include("tables.urls_d20")),
]
