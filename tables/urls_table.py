from django.urls import path

from . import views_table

urlpatterns = [
    path("campaigns/<int:pk>/table/", views_table.table, name="table"),
    path("campaigns/<int:pk>/table/note/", views_table.table_note, name="table_note"),
    path("campaigns/<int:pk>/table/ledger/", views_table.pool_ledger, name="pool_ledger"),
]
