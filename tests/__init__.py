"""The project's tests, in folders by subject; the helpers they and the scripts share are in tests.helpers."""
