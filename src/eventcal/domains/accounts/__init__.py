"""Accounts: users, their roles and application passwords, and the brute-force limits of
logging in."""
